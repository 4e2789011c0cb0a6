// How the client build reads the product's source (an esbuild plugin), in two edits that keep
// every line where it was:
// - `import { page, Form } from "verge"` becomes imports from the modules that define `page` and
//   `Form`. esbuild assigns whole files to chunks and, once it splits code, ignores "sideEffects",
//   so every module the public entry re-exports would reach every page that imports any one name
//   from it (the route table's `page` alone would put the form's code on `/`).
// - A page module loses its `loader` and `actions` exports: they are server-only, and a call at
//   their top (`action(schema, run)`) would otherwise keep them, and the *.server.ts code they
//   use, in the page's chunk, since esbuild cannot know the call has no side effects.
import { readFile } from "node:fs/promises";
import path from "node:path";
import ts from "typescript";

const LOADERS = { ".ts": "ts", ".tsx": "tsx", ".js": "js", ".jsx": "jsx", ".mjs": "js", ".mts": "ts" };

function parse(file, text) {
  const kind = file.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
}

/** The public entry's value exports: exported name -> { from: its module's specifier, name }. */
function valueExports(file, text) {
  const names = new Map();
  for (const statement of parse(file, text).statements) {
    if (!ts.isExportDeclaration(statement) || statement.isTypeOnly) continue;
    const clause = statement.exportClause;
    if (!statement.moduleSpecifier || !clause || !ts.isNamedExports(clause)) {
      throw new Error(`${file}: only \`export { name } from "./module"\` is supported in the public entry`);
    }
    for (const element of clause.elements) {
      if (element.isTypeOnly) continue;
      const name = (element.propertyName ?? element.name).text;
      names.set(element.name.text, { from: statement.moduleSpecifier.text, name });
    }
  }
  return names;
}

/** Exports a page module has only on the server. */
const SERVER_EXPORTS = new Set(["loader", "actions"]);

/**
 * `specifier` is the public entry's name; `entry` its file; `isPage(path)` tells a route's page
 * module. Type-only names are dropped (they have no value to import), and an import the plugin
 * does not understand (a namespace import) is left as written.
 */
export function clientSource({ specifier = "verge", entry, isPage }) {
  return {
    name: "client-source",
    setup(build) {
      let exported;
      const exportsOf = async () => {
        if (exported) return exported;
        const map = valueExports(entry, await readFile(entry, "utf8"));
        const resolveDir = path.dirname(entry);
        for (const target of map.values()) {
          const resolved = await build.resolve(target.from, { kind: "import-statement", resolveDir });
          if (resolved.errors.length > 0) throw new Error(resolved.errors[0].text);
          target.path = resolved.path;
        }
        return (exported = map);
      };
      build.onLoad({ filter: /\.[mc]?[jt]sx?$/, namespace: "file" }, async (args) => {
        if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        const text = await readFile(args.path, "utf8");
        const page = isPage(args.path);
        if (!page && !text.includes(JSON.stringify(specifier))) return undefined;
        const source = parse(args.path, text);
        const map = await exportsOf();
        let out = "";
        let at = 0;
        for (const statement of source.statements) {
          const direct = directImports(statement, specifier, map) ?? (page ? clientExports(statement) : null);
          if (direct === null) continue;
          const start = statement.getStart(source);
          // Same line count, so the source map's lines still hold.
          const lines = text.slice(start, statement.end).split("\n").length - 1;
          out += text.slice(at, start) + direct + "\n".repeat(lines);
          at = statement.end;
        }
        if (at === 0) return undefined;
        out += text.slice(at);
        return {
          contents: out,
          loader: LOADERS[path.extname(args.path)],
          resolveDir: path.dirname(args.path),
        };
      });
    },
  };
}

/** The import declaration `statement` rewritten to import from the defining modules, or null. */
function directImports(statement, specifier, map) {
  if (!ts.isImportDeclaration(statement) || statement.moduleSpecifier.text !== specifier) return null;
  const clause = statement.importClause;
  if (!clause || clause.name || !clause.namedBindings || !ts.isNamedImports(clause.namedBindings)) {
    return null;
  }
  const byModule = new Map();
  for (const element of clause.isTypeOnly ? [] : clause.namedBindings.elements) {
    const target = !element.isTypeOnly && map.get((element.propertyName ?? element.name).text);
    // Not a value the entry exports: a type (erased anyway) or a mistake tsc reports.
    if (!target) continue;
    const binding = `${target.name} as ${element.name.text}`;
    byModule.set(target.path, [...(byModule.get(target.path) ?? []), binding]);
  }
  return [...byModule]
    .map(([file, bindings]) => `import { ${bindings.join(", ")} } from ${JSON.stringify(file)};`)
    .join(" ");
}

const isExported = (statement) =>
  ts.canHaveModifiers(statement) &&
  (ts.getModifiers(statement) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

/** A page module's statement without its server-only exports ("" when nothing is left), or null. */
function clientExports(statement) {
  if (ts.isFunctionDeclaration(statement) && isExported(statement)) {
    return SERVER_EXPORTS.has(statement.name?.text) ? "" : null;
  }
  if (ts.isVariableStatement(statement) && isExported(statement)) {
    const names = statement.declarationList.declarations.map((d) => d.name.getText());
    return names.every((name) => SERVER_EXPORTS.has(name)) ? "" : null;
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
