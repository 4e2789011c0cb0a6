// docs/api.md names every export of the public entries, so the reference cannot fall behind them.
import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { expect, it } from "vitest";
import { root } from "./dist";

/** The names a module exports, as written in its export declarations. */
function exportedNames(file: string): string[] {
  const text = readFileSync(path.join(root, file), "utf8");
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const names: string[] = [];
  for (const statement of source.statements) {
    if (
      ts.isExportDeclaration(statement) &&
      statement.exportClause &&
      ts.isNamedExports(statement.exportClause)
    ) {
      names.push(...statement.exportClause.elements.map((element) => element.name.text));
    } else if (ts.isInterfaceDeclaration(statement)) {
      names.push(statement.name.text);
    }
  }
  return names;
}

it("docs/api.md has a line for every export of verge, verge/server, verge/client and verge/test", () => {
  const doc = readFileSync(path.join(root, "docs/api.md"), "utf8");
  const names = [
    ...["src/shared/index.ts", "src/server/index.ts", "client/index.ts"],
    ...["src/test/index.ts", "src/test/browser/index.ts"],
  ].flatMap(exportedNames);
  expect(names.length).toBeGreaterThan(50);
  expect(names.filter((name) => !new RegExp(`\`${name}[\`(<]`).test(doc))).toEqual([]);
});
