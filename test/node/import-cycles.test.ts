// The runtime's modules (the server's, the shared ones and the browser's) import each other's values
// in one direction only: a cycle makes evaluation order decide whether a name is bound yet, and
// ties every file of the loop together. Type-only imports are erased by the build and may point
// anywhere.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { root } from "./dist";

/** The relative modules `file` takes a value from. */
function valueImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest);
  const found: string[] = [];
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) continue;
    const specifier = statement.moduleSpecifier;
    if (!specifier || !ts.isStringLiteral(specifier) || !specifier.text.startsWith(".")) continue;
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      if (clause?.isTypeOnly) continue;
      const named = clause?.namedBindings;
      const onlyTypes =
        clause !== undefined &&
        clause.name === undefined &&
        named !== undefined &&
        ts.isNamedImports(named) &&
        named.elements.length > 0 &&
        named.elements.every((element) => element.isTypeOnly);
      if (onlyTypes) continue;
    } else if (statement.isTypeOnly) continue;
    found.push(path.resolve(path.dirname(file), specifier.text));
  }
  return found;
}

const withoutExtension = (file: string) => file.replace(/\.tsx?$/, "");

/** Every loop of value imports among the modules of `dirs`, each as the files it passes through. */
function cycles(...dirs: string[]): string[][] {
  const files = dirs.flatMap((dir) =>
    readdirSync(path.join(root, dir))
      .filter((name) => /\.tsx?$/.test(name))
      .map((name) => path.join(root, dir, name)),
  );
  const byModule = new Map(files.map((file) => [withoutExtension(file), file]));
  const edges = new Map(
    files.map((file) => [
      file,
      valueImports(file).flatMap((target) => byModule.get(withoutExtension(target)) ?? []),
    ]),
  );
  const loops: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const trail: string[] = [];
  const visit = (file: string) => {
    state.set(file, "open");
    trail.push(file);
    for (const next of edges.get(file)!) {
      if (state.get(next) === "open")
        loops.push(trail.slice(trail.indexOf(next)).map((f) => path.relative(root, f)));
      else if (!state.has(next)) visit(next);
    }
    trail.pop();
    state.set(file, "done");
  };
  for (const file of files) if (!state.has(file)) visit(file);
  return loops;
}

describe("the runtime's imports", () => {
  it("form no loop of value imports in src/server", () => {
    expect(cycles("src/server")).toEqual([]);
  });

  it("form no loop of value imports among src/shared, client/ and src/server", () => {
    expect(cycles("src/shared", "client", "src/server")).toEqual([]);
  });
});
