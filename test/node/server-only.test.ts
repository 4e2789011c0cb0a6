// Server-only code (loaders, actions, db, secrets, the server runtime and its packages) must
// never reach a file the browser can load. The rule is src/vite/server-only.ts; verge/vite enforces
// it in the client build, and this proves it on the real build output.
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import { clientChunks, readBuild, root } from "./dist";
import { isServerOnly } from "../../src/vite/server-only.ts";
import { WORKER_EXPORTS } from "../../src/vite/server-names.ts";
import { tempApp } from "./vite-app";

/** Packages only the server runtime imports: their bytes in a chunk mean the rule was dodged. */
const SERVER_PACKAGES = [
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

/**
 * String literals and JSX text (plain ASCII, 10+ characters, so they survive minification
 * verbatim) in `node`.
 */
function literals(node: ts.Node, into: Set<string>): Set<string> {
  const text =
    ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateHead(node)
      ? node.text
      : ts.isJsxText(node)
        ? node.text.trim()
        : undefined;
  if (text !== undefined && /^[\x20-\x7e]{10,}$/.test(text) && !/["'\\`]/.test(text)) into.add(text);
  // forEachChild stops at the first truthy return: don't return the set from the callback.
  node.forEachChild((child) => {
    literals(child, into);
  });
  return into;
}

/**
 * Strings only server-only code holds: those in the product's loaders, actions, titles, meta and
 * cache policies, db modules and
 * *.server.ts files, minus any that client-side code also spells (a route path, say).
 */
function serverOnlyStrings(): Map<string, string> {
  const server = new Map<string, string>();
  const shared = new Set<string>();
  for (const file of [...sourceFiles("src"), ...sourceFiles("client")]) {
    const text = readFileSync(path.join(root, file), "utf8");
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
    const wholeFile = /\.server\.tsx?$/.test(file);
    for (const statement of source.statements) {
      const name =
        ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)
          ? statement.name?.text
          : ts.isVariableStatement(statement)
            ? statement.declarationList.declarations.map((d) => d.name.getText()).join(",")
            : undefined;
      // What the worker alone runs or reads, wherever the product declares it.
      const serverExport = file.startsWith("src/app/") && name !== undefined && WORKER_EXPORTS.includes(name);
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

  it("has no chunk with bytes from a server-only module or package (the build's chunk report)", () => {
    const report = readBuild().chunks;
    const leaks = Object.entries(report).flatMap(([chunk, modules]) =>
      modules.filter((module) => isServerOnly(module)).map((module) => `${module} -> ${chunk}`),
    );
    expect(leaks).toEqual([]);
    const packages = Object.entries(report).flatMap(([chunk, modules]) =>
      modules
        .filter((module) => SERVER_PACKAGES.some((pattern) => pattern.test(module)))
        .map((module) => `${module} -> ${chunk}`),
    );
    expect(packages).toEqual([]);
    // The report describes exactly the files on disk, and names the modules in them.
    expect(
      Object.keys(report)
        .map((file) => path.basename(file))
        .sort(),
    ).toEqual([...chunks.keys()].sort());
    expect(Object.values(report).flat()).toContain("src/app/pages/guestbook.tsx");
    expect(Object.values(report).flat()).toContain(
      "node_modules/react-dom/cjs/react-dom-client.production.js",
    );
  });

  it("contains no string literal from a loader, an action, a title, meta or cache, db code or a *.server.ts file", () => {
    const strings = serverOnlyStrings();
    // The examples' loaders have such strings; if none were found the scan itself is broken.
    expect(strings.get("Loader failed on purpose (/errors/loader)")).toBe("src/app/pages/errors-loader.tsx");
    // A page's head, and the layout's, are the worker's: the browser reads them from the page data.
    expect(strings.get("verge: a React application on Cloudflare Workers.")).toBe("src/app/layout.tsx");
    expect(
      strings.get(
        "verge, a React application on Cloudflare Workers: example pages for streaming, forms that work without JavaScript, and error fallbacks.",
      ),
    ).toBe("src/app/pages/home.tsx");
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

describe("the client build", () => {
  const app = tempApp();
  afterAll(() => app.remove());
  app.write({
    "db.server.ts": `export const secretTable = "a secret table name";\n`,
    "entry.ts": `console.log(await import("./leaky"));\n`,
    "entry-stripped.ts": `console.log(await import("./stripped"));\n`,
    // The component itself uses the module: nothing the build strips.
    "leaky.tsx": `import { secretTable } from "./db.server";\nexport default function Leaky() { return <p>{secretTable}</p>; }\n`,
    // Only the loader uses it: the client build drops the loader, and the import with it.
    "stripped.tsx": `import { secretTable } from "./db.server";
export async function loader() { return { table: secretTable }; }
export default function Stripped() { return <p>stripped page text</p>; }
`,
  });

  it("refuses a page whose component imports a *.server.ts module, naming the module", async () => {
    await expect(app.build("entry.ts", "out-leaky")).rejects.toThrow(
      `${app.rel("db.server.ts")} is server-only`,
    );
  });

  it("builds a page whose loader alone imports one, without the loader or the module", async () => {
    const { output, report } = await app.build("entry-stripped.ts", "out-stripped");
    const page = output.find((chunk) => chunk.facadeModuleId?.endsWith("stripped.tsx"))!;
    expect(page.code).toContain("stripped page text");
    expect(page.code).not.toContain("a secret table name");
    expect(Object.values(report.chunks).flat()).not.toContain(app.rel("db.server.ts"));
  });
});

/** Relative import specifiers of a TypeScript file, resolved to paths from the project root. */
function importsOf(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(path.join(root, file), "utf8"), true, true);
  return info.importedFiles
    .map((imported) => imported.fileName)
    .filter((name) => name.startsWith("."))
    .map((name) => path.relative(root, path.resolve(root, path.dirname(file), name)));
}

describe("the runtime and the product", () => {
  const ENTRIES = ["src/worker.ts", "client/entry.tsx"];

  it("only the two entries import the product (src/app/)", () => {
    const runtime = [...sourceFiles("src"), ...sourceFiles("client")].filter(
      (file) => !file.startsWith("src/app/") && !ENTRIES.includes(file),
    );
    expect(runtime.length).toBeGreaterThan(30);
    const offenders = runtime.flatMap((file) =>
      importsOf(file)
        .filter((target) => target === "src/app" || target.startsWith("src/app/"))
        .map((target) => `${file} -> ${target}`),
    );
    expect(offenders).toEqual([]);
    // And the entries do: the scan sees imports.
    for (const entry of ENTRIES) expect(importsOf(entry)).toContain("src/app");
  });

  it("the products (src/app/, test/fixture-app/) reach the runtime only through `verge`", () => {
    const products = [...sourceFiles("src/app"), ...sourceFiles("test/fixture-app")];
    const offenders = products.flatMap((file) =>
      specifiersOf(file)
        .filter((specifier) => !allowedInProduct(file, specifier))
        .map((specifier) => `${file} -> ${specifier}`),
    );
    expect(offenders).toEqual([]);
    // The scan sees imports: pages and entries do import the public entry and its subpaths.
    expect(specifiersOf("src/app/pages/guestbook.tsx")).toContain("verge");
    expect(specifiersOf("test/fixture-app/worker.ts")).toContain("verge/server");
    expect(specifiersOf("test/fixture-app/client.tsx")).toContain("verge/client");
    expect(specifiersOf("test/fixture-app/vite.config.ts")).toContain("verge/vite");
  });

  it("the public entry names no server-only module (pages import it into client chunks)", () => {
    const reached = importsOf("src/shared/index.ts");
    expect(reached.length).toBeGreaterThan(3);
    expect(reached.filter((file) => isServerOnly(file))).toEqual([]);
    expect(reached.filter((file) => !file.startsWith("src/shared/"))).toEqual([]);
  });
});

/** Every import specifier of a TypeScript file, as written. */
function specifiersOf(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(path.join(root, file), "utf8"), true, true);
  return info.importedFiles.map((imported) => imported.fileName);
}

/** The runtime's public entries: pages and layouts `verge`, worker and browser entries the other two. */
const PUBLIC_ENTRIES = ["verge", "verge/server", "verge/client"];
/** Folders a product may reach by path: products (one may reuse another's pages) and built output. */
const PRODUCT_FOLDERS = ["src/app/", "test/fixture-app/", "dist/"];

function allowedInProduct(file: string, specifier: string): boolean {
  if (PUBLIC_ENTRIES.includes(specifier)) return true;
  // A product's vite.config.ts is its build's, not its code: it takes verge's plugin.
  if (specifier === "verge/vite") return path.basename(file) === "vite.config.ts";
  if (!specifier.startsWith(".")) return !specifier.startsWith("verge"); // packages: react, valibot
  const target = path.relative(root, path.resolve(root, path.dirname(file), specifier));
  return PRODUCT_FOLDERS.some((folder) => `${target}/`.startsWith(folder));
}
