// The route table's lines as the build sees them in the source: each `page("/pattern", …)` and
// `endpoint("/pattern", …)` call of verge's, with its pattern and where it is written, so a build
// error can name the line a person would edit.
import ts from "typescript";

export interface RouteLine {
  pattern: string;
  kind: "page" | "endpoint";
  /** `file:line`, the file root-relative. */
  at: string;
}

/** The route lines in `code` (the file `file`, root-relative): calls of `page` or `endpoint` imported from "verge". */
export function routeLines(file: string, code: string): RouteLine[] {
  if (!/\b(page|endpoint)\b/.test(code) || !/["']verge["']/.test(code)) return [];
  const source = ts.createSourceFile(file, code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  // Local name -> verge's name: an import may rename them (`page as route`).
  const names = new Map<string, RouteLine["kind"]>();
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    const bindings = statement.moduleSpecifier.text === "verge" && statement.importClause?.namedBindings;
    if (!bindings || !ts.isNamedImports(bindings)) continue;
    for (const element of bindings.elements) {
      const imported = (element.propertyName ?? element.name).text;
      if (imported === "page" || imported === "endpoint") names.set(element.name.text, imported);
    }
  }
  const lines: RouteLine[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression)) {
      const kind = names.get(node.expression.text);
      const pattern = node.arguments[0];
      if (kind && pattern && ts.isStringLiteralLike(pattern)) {
        const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
        lines.push({ pattern: pattern.text, kind, at: `${file}:${line}` });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return lines;
}
