// What a module loses on its way to the browser: its `loader`, `visitorLoader` and `actions`
// exports (an endpoint's handlers and `use` too), which only the worker runs, and the values of its `title`, `meta`, `cache` and
// `cacheControl`, which only the worker reads (each stays exported, as `undefined`, so that an
// import of it still resolves). Removed from the source before any other transform, so whatever
// only they used (a `*.server.ts` import, a `action(schema, run)` call at the module's top, a
// page's description) goes with them.
import ts from "typescript";

/** Exports only the worker has: a page's loaders and actions, an endpoint's handlers and middleware. */
const SERVER_EXPORTS = new Set([
  "loader",
  "visitorLoader",
  "actions",
  "GET",
  "POST",
  "PUT",
  "PATCH",
  "DELETE",
  "use",
]);
/** Exports only the worker reads: the browser gets `undefined`. */
const WORKER_VALUES = new Set(["title", "meta", "cache", "cacheControl", "crossSite"]);
/** A cheap first look: a module that never spells one of those names is left unparsed. */
const ANY = new RegExp(`\\b(${[...SERVER_EXPORTS, ...WORKER_VALUES].join("|")})\\b`);

const blank = (names: string[]) => names.map((name) => `export const ${name} = undefined;`).join(" ");

const isExported = (statement: ts.Statement) =>
  ts.canHaveModifiers(statement) &&
  (ts.getModifiers(statement) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

/** `statement` as the browser gets it ("" when nothing is left), or null when it stays as written. */
function clientStatement(statement: ts.Statement): string | null {
  if (ts.isFunctionDeclaration(statement) && isExported(statement)) {
    const name = statement.name?.text ?? "";
    return SERVER_EXPORTS.has(name) ? "" : WORKER_VALUES.has(name) ? blank([name]) : null;
  }
  if (ts.isVariableStatement(statement) && isExported(statement)) {
    const names = statement.declarationList.declarations.map((d) => d.name.getText());
    const workers = names.filter((name) => SERVER_EXPORTS.has(name) || WORKER_VALUES.has(name));
    if (workers.length === 0) return null;
    if (workers.length < names.length) {
      throw new Error(
        `declare \`${names.join(", ")}\` in separate statements: ${[...SERVER_EXPORTS, ...WORKER_VALUES].join(", ")} are the worker's`,
      );
    }
    return blank(names.filter((name) => WORKER_VALUES.has(name)));
  }
  if (
    ts.isExportDeclaration(statement) &&
    statement.exportClause &&
    ts.isNamedExports(statement.exportClause)
  ) {
    const elements = statement.exportClause.elements;
    const kept = elements.filter(
      ({ name }) => !SERVER_EXPORTS.has(name.text) && !WORKER_VALUES.has(name.text),
    );
    if (kept.length === elements.length) return null;
    const blanked = blank(
      elements.filter(({ name }) => WORKER_VALUES.has(name.text)).map(({ name }) => name.text),
    );
    const from = statement.moduleSpecifier ? ` from ${statement.moduleSpecifier.getText()}` : "";
    const rest =
      kept.length === 0 ? "" : `export { ${kept.map((element) => element.getText()).join(", ")} }${from};`;
    return [rest, blanked].filter(Boolean).join(" ");
  }
  return null;
}

/**
 * `code` without its `loader`, `visitorLoader` and `actions` exports and with `title`, `meta`,
 * `cache` and `cacheControl` as `undefined`, every other line where it was (so the source map
 * still holds), or null when it has none of them. TypeScript's unused-import elision then drops
 * what only they imported.
 */
export function withoutServerExports(file: string, code: string): string | null {
  if (!ANY.test(code)) return null;
  const kind = /x$/.test(file) ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, code, ts.ScriptTarget.Latest, true, kind);
  let out = "";
  let at = 0;
  for (const statement of source.statements) {
    const kept = clientStatement(statement);
    if (kept === null) continue;
    const start = statement.getStart(source);
    const lines = code.slice(start, statement.end).split("\n").length - 1;
    out += code.slice(at, start) + kept + "\n".repeat(lines);
    at = statement.end;
  }
  return at === 0 ? null : out + code.slice(at);
}
