// The bindings a worker export's value names (`export { load as loader }`, `actions = { rename }`)
// that the browser's code also reads: each would take its function's body into a browser chunk,
// so the build fails and names it, unless it is a call of verge's `action()`, whose run function
// the browser's copy loses (action-runs.ts) and whose schema it keeps.
import ts from "typescript";
import { isImportPart, nameOf, type ModuleGraph, type Part } from "./module-graph.ts";

/** `x` of `(x)`, `x as T`, `x satisfies T`, `x!`: the same value at run time. */
function unwrapped(node: ts.Node | undefined): ts.Node | undefined {
  while (
    node &&
    (ts.isParenthesizedExpression(node) ||
      ts.isAsExpression(node) ||
      ts.isSatisfiesExpression(node) ||
      ts.isNonNullExpression(node))
  )
    node = node.expression;
  return node;
}

/** The top-level parts that an export's value is, or holds directly (an object's, an array's). */
function valuesOf(part: Part, graph: ModuleGraph): Part[] {
  if (ts.isExportSpecifier(part)) return [...graph.uses(part)];
  if (!ts.isVariableStatement(part)) return [];
  const named = (written: ts.Node | undefined): Part[] => {
    const node = unwrapped(written);
    if (!node) return [];
    if (ts.isIdentifier(node)) return [graph.partOf(node)].filter((found) => found !== undefined);
    if (ts.isShorthandPropertyAssignment(node)) return named(node.name);
    if (ts.isPropertyAssignment(node)) return named(node.initializer);
    if (ts.isObjectLiteralExpression(node)) return node.properties.flatMap(named);
    if (ts.isArrayLiteralExpression(node)) return node.elements.flatMap(named);
    return [];
  };
  return part.declarationList.declarations.flatMap((declaration) => named(declaration.initializer));
}

export interface BrowserView {
  /** The parts that export what only the worker runs (`loader`, `actions`, `middleware`, ...). */
  serverOnly: Part[];
  /** The parts the browser's copy keeps. */
  kept: Set<Part>;
  /** The calls of verge's `action()` in the module. */
  calls: Set<ts.CallExpression>;
  /** The parts a part reads in the browser's copy. */
  uses: (part: Part) => Set<Part>;
}

/** Fails the build when the browser's code keeps a worker function other than an `action()` call. */
export function keptWorkerValues(file: string, graph: ModuleGraph, view: BrowserView): void {
  const isAction = (part: Part) =>
    ts.isVariableStatement(part) &&
    part.declarationList.declarations.every((declaration) => {
      const value = unwrapped(declaration.initializer);
      return value !== undefined && ts.isCallExpression(value) && view.calls.has(value);
    });
  for (const part of view.serverOnly) {
    const value = valuesOf(part, graph).find(
      (found) => view.kept.has(found) && !isImportPart(found) && !isAction(found),
    );
    if (!value) continue;
    const name = nameOf(value, graph.source);
    const reader = [...view.kept].find((other) => other !== value && view.uses(other).has(value));
    const exported = ts.isExportSpecifier(part) ? part.name.text : nameOf(part, graph.source);
    const remedy =
      exported === "actions"
        ? "export the schema on its own (`const renameSchema = …`), or make the action with `action(schema, run)`"
        : "move what the browser needs into a function of its own";
    throw new Error(
      `${file}: \`${reader ? nameOf(reader, graph.source) : name}\` uses \`${name}\`, the worker's ` +
        `\`${exported}\`, whose code would reach the browser: ${remedy}`,
    );
  }
}
