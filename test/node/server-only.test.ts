// Server-only code (loaders, actions, db, secrets, the worker's own modules and packages)
// must never reach a file the browser can load. Proven on the real build output.
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { clientChunks, readBuild, root } from "./dist";

/** Inputs that may never contribute bytes to a client chunk (paths as esbuild's metafile writes them). */
const SERVER_ONLY_INPUTS = [
  /^src\/app\/db\//,
  /\.server\.tsx?$/,
  /^src\/(worker|create-app|handler|render|page-data|page-load|actions|relay|reporting|logger|errors)\.tsx?$/,
  /node_modules\/(hono|toucan-js)\//,
  /node_modules\/react-dom\/(cjs\/react-dom-server|server)/,
];

/** Words only server code or secrets contain. */
const SERVER_ONLY_WORDS = ["SENTRY_DSN", "toucan", "renderToReadableStream", "secureHeadersNonce"];

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)));
}

/** String literals (plain ASCII, 10+ characters, so they survive minification verbatim) in `node`. */
function literals(node: ts.Node, into: Set<string>): Set<string> {
  if (
    (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateHead(node)) &&
    /^[\x20-\x7e]{10,}$/.test(node.text) &&
    !/["'\\`]/.test(node.text)
  ) {
    into.add(node.text);
  }
  // forEachChild stops at the first truthy return: don't return the set from the callback.
  node.forEachChild((child) => {
    literals(child, into);
  });
  return into;
}

/**
 * Strings only server-only code holds: those in page loaders and actions, db modules and
 * *.server.ts files, minus any that client-side code also spells (a route path, say).
 */
function serverOnlyStrings(): Map<string, string> {
  const server = new Map<string, string>();
  const shared = new Set<string>();
  for (const file of [...sourceFiles("src"), ...sourceFiles("client")]) {
    const text = readFileSync(path.join(root, file), "utf8");
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
    const wholeFile = file.startsWith("src/app/db/") || /\.server\.tsx?$/.test(file);
    const isPage = file.startsWith("src/app/pages/");
    for (const statement of source.statements) {
      const name =
        ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)
          ? statement.name?.text
          : ts.isVariableStatement(statement)
            ? statement.declarationList.declarations.map((d) => d.name.getText()).join(",")
            : undefined;
      const serverExport = isPage && name !== undefined && /^(loader|actions)$/.test(name);
      for (const literal of literals(statement, new Set())) {
        if (wholeFile || serverExport) server.set(literal, file);
        else shared.add(literal);
      }
    }
  }
  for (const literal of shared) server.delete(literal);
  return server;
}

describe("the client bundle", () => {
  const chunks = clientChunks();

  it("has no chunk with bytes from a server-only module (esbuild metafile)", () => {
    const { metafile } = readBuild();
    const leaks: string[] = [];
    for (const [output, { inputs }] of Object.entries(metafile.outputs)) {
      for (const [input, { bytesInOutput }] of Object.entries(inputs)) {
        if (bytesInOutput > 0 && SERVER_ONLY_INPUTS.some((pattern) => pattern.test(input))) {
          leaks.push(`${input} -> ${output}`);
        }
      }
    }
    expect(leaks).toEqual([]);
    // The metafile describes exactly the files on disk.
    const outputs = Object.keys(metafile.outputs)
      .filter((file) => file.endsWith(".js"))
      .map((file) => path.basename(file));
    expect(outputs.sort()).toEqual([...chunks.keys()].sort());
  });

  it("contains no string literal from a loader, an action, db code or a *.server.ts file", () => {
    const strings = serverOnlyStrings();
    // The examples' loaders have such strings; if none were found the scan itself is broken.
    expect(strings.get("Loader failed on purpose (/errors/loader)")).toBe("src/app/pages/errors-loader.tsx");
    const leaks = [...strings].flatMap(([literal, file]) =>
      [...chunks]
        .filter(([, code]) => code.includes(literal))
        .map(([chunk]) => `${file}: "${literal}" in ${chunk}`),
    );
    expect(leaks).toEqual([]);
  });

  it("contains no server-only word (secrets, toucan-js, the server renderer, the worker's context)", () => {
    for (const [chunk, code] of chunks) {
      for (const word of SERVER_ONLY_WORDS) expect(code.includes(word), `${word} in ${chunk}`).toBe(false);
    }
  });

  it("does contain the page components' own text (the scan reads real chunks)", () => {
    const all = [...chunks.values()].join("\n");
    expect(all).toContain("Throw during a client render");
    expect(all).toContain("Loading the slow part");
  });
});
