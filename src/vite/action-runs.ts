// Where a module calls verge's `action(schema, run)`: the browser's copy of the module keeps the
// call for its schema (a form's checks read `rename.schema`) and loses the run function, and what
// only that uses (server-exports.ts). `action` used any other way (passed on, renamed into a
// variable) could carry a run function past this, so it fails the build.
import ts from "typescript";
import { nameOf, type ModuleGraph, type Part } from "./module-graph.ts";

export interface ActionCalls {
  /** Each call of verge's `action`. */
  calls: Set<ts.CallExpression>;
  /** Each call's run function (its second argument), as written. */
  runs: Set<ts.Expression>;
}

/** A cheap first look: a module that imports nothing from verge, or never spells `action`, has none. */
export const mayCallAction = (code: string) => /\baction\b/.test(code) && /["']verge["']/.test(code);

/** Verge's `action` as this module imports it: by name (maybe renamed), or its namespace. */
function imported(graph: ModuleGraph) {
  const named = new Set<Part>();
  const namespaces = new Set<Part>();
  for (const statement of graph.source.statements) {
    if (!ts.isImportDeclaration(statement) || !statement.importClause) continue;
    const from = statement.moduleSpecifier;
    if (!ts.isStringLiteral(from) || from.text !== "verge" || statement.importClause.isTypeOnly) continue;
    const bindings = statement.importClause.namedBindings;
    if (bindings && ts.isNamespaceImport(bindings)) namespaces.add(bindings);
    if (bindings && ts.isNamedImports(bindings)) {
      for (const element of bindings.elements) {
        if ((element.propertyName ?? element.name).text === "action" && !element.isTypeOnly)
          named.add(element);
      }
    }
  }
  return { named, namespaces };
}

/** The top-level statement `node` is in, named for a message. */
function holder(node: ts.Node, source: ts.SourceFile): string {
  let statement = node;
  while (statement.parent && !ts.isSourceFile(statement.parent)) statement = statement.parent;
  return nameOf(statement as ts.Statement, source);
}

/** The calls of verge's `action` in a module, or an error for a use that is not a call. */
export function actionCalls(file: string, graph: ModuleGraph, code: string): ActionCalls {
  const found: ActionCalls = { calls: new Set(), runs: new Set() };
  if (!mayCallAction(code)) return found;
  const { named, namespaces } = imported(graph);
  if (named.size === 0 && namespaces.size === 0) return found;
  const refuse = (node: ts.Node, how = "other than by calling it"): never => {
    throw new Error(
      `${file}: \`${holder(node, graph.source)}\` uses verge's \`action\` ${how}, which could ` +
        `take its run function into the browser: call \`action(schema, run)\` itself`,
    );
  };
  const visit = (node: ts.Node): void => {
    // Types are erased (`typeof action`), and an import's own names are not uses.
    if (ts.isTypeNode(node) || ts.isImportDeclaration(node)) return;
    if (ts.isIdentifier(node)) {
      const part = graph.partOf(node);
      let call: ts.Node = node;
      if (part && namespaces.has(part)) {
        const access = node.parent;
        if (!ts.isPropertyAccessExpression(access) || access.expression !== node) refuse(node);
        if ((access as ts.PropertyAccessExpression).name.text !== "action") return;
        call = access;
      } else if (!part || !named.has(part)) return;
      const parent = call.parent;
      if (!ts.isCallExpression(parent) || parent.expression !== call) refuse(node);
      const args = (parent as ts.CallExpression).arguments;
      if (args.slice(0, 2).some(ts.isSpreadElement)) refuse(node, "with spread arguments");
      found.calls.add(parent as ts.CallExpression);
      if (args[1]) found.runs.add(args[1]);
    }
    node.forEachChild(visit);
  };
  graph.source.forEachChild(visit);
  return found;
}
