// What a module loses on its way to the browser: its `loader`, `visitorLoader` and `actions`
// exports, which only the worker runs. Removed from the source before any other transform, so whatever only they used
// (a `*.server.ts` import, a `action(schema, run)` call at the module's top) goes with them.
import ts from "typescript";

/** Exports only the worker has. */
const SERVER_EXPORTS = new Set(["loader", "visitorLoader", "actions"]);

const isExported = (statement: ts.Statement) =>
  ts.canHaveModifiers(statement) &&
  (ts.getModifiers(statement) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

/** `statement` without its server-only exports ("" when nothing is left), or null when it has none. */
function clientStatement(statement: ts.Statement): string | null {
  if (ts.isFunctionDeclaration(statement) && isExported(statement)) {
    return SERVER_EXPORTS.has(statement.name?.text ?? "") ? "" : null;
  }
  if (ts.isVariableStatement(statement) && isExported(statement)) {
    const names = statement.declarationList.declarations.map((d) => d.name.getText());
    if (names.every((name) => SERVER_EXPORTS.has(name))) return "";
    if (names.some((name) => SERVER_EXPORTS.has(name))) {
      throw new Error(
        `declare \`${names.join(", ")}\` in separate statements: loader, visitorLoader and actions are server-only`,
      );
    }
    return null;
  }
  if (
    ts.isExportDeclaration(statement) &&
    statement.exportClause &&
    ts.isNamedExports(statement.exportClause)
  ) {
    const elements = statement.exportClause.elements;
    const kept = elements.filter((element) => !SERVER_EXPORTS.has(element.name.text));
    if (kept.length === elements.length) return null;
    if (kept.length === 0) return "";
    const from = statement.moduleSpecifier ? ` from ${statement.moduleSpecifier.getText()}` : "";
    return `export { ${kept.map((element) => element.getText()).join(", ")} }${from};`;
  }
  return null;
}

/**
 * `code` without its `loader`, `visitorLoader` and `actions` exports, every other line where it was (so the source
 * map still holds), or null when it has none. TypeScript's unused-import elision then drops what
 * only they imported.
 */
export function withoutServerExports(file: string, code: string): string | null {
  if (!/\b(loader|visitorLoader|actions)\b/.test(code)) return null;
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
