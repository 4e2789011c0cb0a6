// What a module loses on its way to the browser: its `loader`, `visitorLoader` and `actions`
// exports (an endpoint's handlers and `use` too), which only the worker runs, and the values of its `title`, `meta`, `cache` and
// `cacheControl`, which only the worker reads (each stays exported, as `undefined`, so that an
// import of it still resolves); and with them every top-level function, variable and import
// binding that only they use, however the module declares them (`const rename = action(…);
// export const actions = { rename }`, `export { load as loader }`), so a `*.server.ts` import or
// an action's SQL never reaches a browser chunk. A call of verge's `action()` the browser keeps
// (its schema read by a form) loses its run function, and what only that uses (action-runs.ts);
// any other function of the worker's that the browser's code reads fails the build
// (worker-values.ts). Removed from the source before any other transform; a form it cannot take
// apart safely fails the build with how to write it.
import ts from "typescript";
import { actionCalls, mayCallAction, type ActionCalls } from "./action-runs.ts";
import {
  bindingElements,
  isImportPart,
  moduleGraph,
  nameOf,
  type ModuleGraph,
  type Part,
} from "./module-graph.ts";
import { SERVER_ONLY_EXPORTS, WORKER_EXPORTS, WORKER_VALUE_EXPORTS } from "./server-names.ts";
import { keptWorkerValues } from "./worker-values.ts";

/**
 * A cheap first look: a module that never spells one of those names, nor `export *` (which may
 * bring them), is left unparsed.
 */
const ANY = new RegExp(`\\b(${WORKER_EXPORTS.join("|")})\\b|\\bexport\\s*\\*\\s*from\\b`);
const NAMES = WORKER_EXPORTS.join(", ");

const blank = (names: string[]) => names.map((name) => `export const ${name} = undefined;`).join(" ");
/**
 * The same for names of an `export { … }` list, through a name of verge's own: a variable of the
 * exported name may stay (`const title = …; export { title }`, the page reading `title` too).
 */
const blankListed = (names: string[]) =>
  names.map((name) => `const __verge_${name} = undefined; export { __verge_${name} as ${name} };`).join(" ");

const isExported = (statement: ts.Node) =>
  ts.canHaveModifiers(statement) &&
  (ts.getModifiers(statement) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

/** What becomes of a part that exports a worker name: the worker names it blanks ([] for none). */
type WorkerPart = { blanks: string[] };

/** The worker's own parts of a module, or an error for a form that cannot be taken apart. */
function workerPart(file: string, part: Part, code: string): WorkerPart | null {
  if (ts.isExportSpecifier(part)) {
    const name = part.name.text;
    if (!WORKER_EXPORTS.includes(name)) return null;
    return { blanks: WORKER_VALUE_EXPORTS.includes(name) ? [name] : [] };
  }
  if (ts.isFunctionDeclaration(part) && isExported(part)) {
    const name = part.name?.text ?? "";
    if (!WORKER_EXPORTS.includes(name)) return null;
    return { blanks: WORKER_VALUE_EXPORTS.includes(name) ? [name] : [] };
  }
  if (ts.isExportDeclaration(part) && !part.exportClause && part.moduleSpecifier) {
    const from = part.moduleSpecifier.getText();
    throw new Error(
      `${file}: \`export * from ${from}\` may bring the worker's exports (${NAMES}) into the ` +
        `browser, and verge cannot see them here to leave them out: name what it re-exports: ` +
        `\`export { A, B } from ${from}\``,
    );
  }
  if (!ts.isVariableStatement(part) || !isExported(part)) return null;
  const list = part.declarationList;
  for (const declaration of list.declarations) {
    const destructured = bindingElements(declaration.name).find(
      (element) => ts.isIdentifier(element.name) && WORKER_EXPORTS.includes(element.name.text),
    );
    if (destructured) {
      const name = (destructured.name as ts.Identifier).text;
      const written = code.slice(list.getStart(), declaration.name.end);
      throw new Error(
        `${file}: \`export ${written}\` declares the worker's \`${name}\` by destructuring, which ` +
          `verge cannot take apart to keep it out of the browser: declare it on its own: ` +
          `\`export const ${name} = …\``,
      );
    }
  }
  const names = list.declarations.map((d) => d.name.getText());
  const workers = names.filter((name) => WORKER_EXPORTS.includes(name));
  if (workers.length === 0) return null;
  if (workers.length < names.length) {
    throw new Error(
      `${file}: declare \`${names.join(", ")}\` in separate statements: ${NAMES} are the worker's`,
    );
  }
  return { blanks: names.filter((name) => WORKER_VALUE_EXPORTS.includes(name)) };
}

/** Which parts the browser loses: the worker's, and what only they (or a run function) use. */
function split(file: string, graph: ModuleGraph, code: string, actions: ActionCalls) {
  const worker = new Map<Part, WorkerPart>();
  for (const part of graph.parts) {
    const found = workerPart(file, part, code);
    if (found) worker.set(part, found);
  }
  if (worker.size === 0 && actions.runs.size === 0) return { worker, lost: new Set<Part>() };
  // What the browser's code reads: never what is in a run function, which it loses.
  const uses = (part: Part) => graph.uses(part, actions.runs);
  // What the browser keeps: every part that is not the worker's nor a declaration (it runs, or
  // it is an export the browser may import), and every declaration these use.
  const removable = (part: Part) =>
    isImportPart(part) ||
    ((ts.isFunctionDeclaration(part) || ts.isClassDeclaration(part) || ts.isVariableStatement(part)) &&
      !isExported(part));
  const kept = new Set<Part>();
  const keep = (part: Part) => {
    if (kept.has(part) || worker.has(part)) return;
    kept.add(part);
    uses(part).forEach(keep);
  };
  graph.parts.filter((part) => !worker.has(part) && !removable(part)).forEach(keep);
  for (const part of kept) {
    const used = [...uses(part)].find((other) => worker.get(other)?.blanks.length === 0);
    if (used) {
      throw new Error(
        `${file}: \`${nameOf(part, graph.source)}\` uses \`${nameOf(used, graph.source)}\`, which ` +
          `only the worker has: move what both need into a function of its own`,
      );
    }
  }
  // What the browser loses: the worker's parts and the declarations only they use.
  const lost = new Set<Part>();
  const lose = (part: Part) => {
    if (lost.has(part) || kept.has(part)) return;
    lost.add(part);
    graph.uses(part).forEach(lose);
  };
  const serverOnly = [...worker].filter(([, { blanks }]) => blanks.length === 0).map(([part]) => part);
  keptWorkerValues(file, graph, { serverOnly, kept, calls: actions.calls, uses });
  worker.forEach((_, part) => lose(part));
  actions.runs.forEach((run) => graph.reads(run).forEach(lose));
  return { worker, lost };
}

/**
 * `code` as the browser gets it (see above), every other line where it was (so the source map
 * still holds), or null when it has nothing of the worker's.
 */
export function withoutServerExports(file: string, code: string): string | null {
  if (!ANY.test(code) && !mayCallAction(code)) return null;
  const graph = moduleGraph(file, code);
  const actions = actionCalls(file, graph, code);
  const { worker, lost } = split(file, graph, code, actions);
  const edits: { node: ts.Node; text: string }[] = [];
  for (const statement of graph.source.statements) {
    const text = browserStatement(statement, worker, lost);
    if (text !== null) edits.push({ node: statement, text });
  }
  // A run function the browser would keep (its statement stays): `undefined` in its place, the
  // outermost one only (a run may hold another).
  const inEdit = (node: ts.Node) =>
    edits.some((edit) => edit.node.pos <= node.pos && node.end <= edit.node.end);
  for (const run of [...actions.runs].sort((a, b) => a.pos - b.pos)) {
    if (!inEdit(run)) edits.push({ node: run, text: "undefined" });
  }
  if (edits.length === 0) return null;
  let out = "";
  let at = 0;
  for (const { node, text } of edits.sort((a, b) => a.node.pos - b.node.pos)) {
    const start = node.getStart(graph.source);
    const lines = code.slice(start, node.end).split("\n").length - 1;
    out += code.slice(at, start) + text + "\n".repeat(lines);
    at = node.end;
  }
  return out + code.slice(at);
}

/** `statement` as the browser gets it ("" when nothing is left), or null when it stays as written. */
function browserStatement(
  statement: ts.Statement,
  worker: Map<Part, WorkerPart>,
  lost: Set<Part>,
): string | null {
  if (ts.isImportDeclaration(statement) && statement.importClause) {
    const clause = statement.importClause;
    const bindings = clause.namedBindings;
    const named = bindings && ts.isNamedImports(bindings) ? bindings.elements : [];
    const all: Part[] = [
      ...(clause.name ? [clause] : []),
      ...(bindings && ts.isNamespaceImport(bindings) ? [bindings] : []),
      ...named,
    ];
    if (!all.some((part) => lost.has(part))) return null;
    const head = [
      ...(clause.name && !lost.has(clause) ? [clause.name.text] : []),
      ...(bindings && ts.isNamespaceImport(bindings) && !lost.has(bindings) ? [bindings.getText()] : []),
    ];
    // Types are erased: an import left with types alone goes, so nothing resolves its module.
    const keptNamed = named.filter((element) => !lost.has(element));
    if (keptNamed.some((element) => !element.isTypeOnly)) {
      head.push(`{ ${keptNamed.map((element) => element.getText()).join(", ")} }`);
    }
    if (head.length === 0 || clause.isTypeOnly) return "";
    return `import ${head.join(", ")} from ${statement.moduleSpecifier.getText()};`;
  }
  if (
    ts.isExportDeclaration(statement) &&
    statement.exportClause &&
    ts.isNamedExports(statement.exportClause)
  ) {
    const elements = statement.exportClause.elements;
    if (!elements.some((element) => lost.has(element))) return null;
    const kept = elements.filter((element) => !lost.has(element));
    const from = statement.moduleSpecifier ? ` from ${statement.moduleSpecifier.getText()}` : "";
    const rest =
      kept.length === 0 ? "" : `export { ${kept.map((element) => element.getText()).join(", ")} }${from};`;
    const blanks = blankListed(elements.flatMap((element) => worker.get(element)?.blanks ?? []));
    return [rest, blanks].filter(Boolean).join(" ");
  }
  if (!lost.has(statement)) return null;
  return blank(worker.get(statement)?.blanks ?? []);
}
