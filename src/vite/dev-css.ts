// Under `vite dev`: the stylesheets the browser entry imports, through the modules it imports
// statically, as Vite serves them, for every document to inline in <head> as <style
// data-vite-dev-id>, which Vite's client adopts as its own (a save updates them in place). Without
// them a page's CSS came only once its modules had run: the page showed unstyled first, and a
// cross-document view transition (`@view-transition` in a stylesheet) found no opt-in in the new
// document and was aborted with an uncaught error. Linked, not inlined, they still came too late
// for it: a dev server's stylesheet is asked again on every document (no-cache), and Chromium
// decided before it arrived.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { parseAst, type DevEnvironment } from "vite";
import type { DevStyle } from "../server/manifest.ts";

/** A stylesheet, by the extensions Vite's CSS plugin takes. */
const STYLESHEET = /\.(css|less|sass|scss|styl|stylus|pcss|postcss|sss)(\?|$)/;

/** The modules read for their imports, by extension. */
const LANGS: Record<string, "js" | "jsx" | "ts" | "tsx"> = {
  ".js": "js",
  ".mjs": "js",
  ".jsx": "jsx",
  ".ts": "ts",
  ".mts": "ts",
  ".tsx": "tsx",
};

/** What `code` imports statically (not `import()`, not types only), in order. */
function staticImports(code: string, lang: "js" | "jsx" | "ts" | "tsx"): string[] {
  return parseAst(code, { lang }).body.flatMap((node) =>
    (node.type === "ImportDeclaration" ||
      node.type === "ExportAllDeclaration" ||
      node.type === "ExportNamedDeclaration") &&
    node.source &&
    (node.type === "ImportDeclaration" ? node.importKind : node.exportKind) !== "type"
      ? [node.source.value]
      : [],
  );
}

/** A stylesheet the entry imports: where Vite serves it, and its module id. */
export interface Stylesheet {
  url: string;
  id: string;
}

/**
 * The stylesheets the entry (from the project root) imports, in import order, itself or through
 * the project's modules it imports statically (not through `import()`: a page's own stylesheets
 * come with its module). The sources are read as saved, not transformed: transforms here, before
 * the browser's first requests, raced Vite's prebundling of packages (its requests then hung).
 */
export async function entryStylesheets(client: DevEnvironment, entry: string): Promise<Stylesheet[]> {
  const root = client.config.root;
  const seen = new Set<string>();
  /** The stylesheets under `file`, in the order its imports come; none for a module met before. */
  const under = async (file: string): Promise<Stylesheet[]> => {
    if (seen.has(file)) return [];
    seen.add(file);
    const lang = LANGS[path.extname(file)];
    const code = lang ? await readFile(file, "utf8").catch(() => null) : null;
    if (!lang || code === null) return [];
    let specifiers: string[];
    try {
      specifiers = staticImports(code, lang);
    } catch {
      return []; // a save with a syntax error: Vite's overlay says so
    }
    // Side by side, put back in import order: the cascade follows it.
    const found = await Promise.all(
      specifiers.map(async (specifier): Promise<Stylesheet[]> => {
        // Packages are not followed (their bare names would wake Vite's prebundling), but a
        // stylesheet of theirs the project imports counts.
        if (!/^[./]/.test(specifier) && !STYLESHEET.test(specifier)) return [];
        const id = (await client.pluginContainer.resolveId(specifier, file))?.id;
        if (!id || id.startsWith("\0")) return [];
        if (STYLESHEET.test(id)) return [{ url: urlOf(root, id), id }];
        return id.includes("/node_modules/") ? [] : under(id.split("?")[0]!);
      }),
    );
    return found.flat();
  };
  const sheets = await under(path.resolve(root, entry));
  return sheets.filter((sheet, at) => sheets.findIndex((other) => other.id === sheet.id) === at);
}

/** Each stylesheet's text as Vite serves it now (PostCSS and the CSS plugins applied). */
export async function stylesOf(client: DevEnvironment, sheets: Stylesheet[]): Promise<DevStyle[]> {
  return Promise.all(
    sheets.map(async ({ url, id }) => {
      const result = await client.transformRequest(`${url}?direct`).catch(() => null);
      return { id, text: result?.code ?? "" };
    }),
  );
}

/** The URL Vite serves `id` at: from the root inside it, through /@fs/ outside. */
function urlOf(root: string, id: string): string {
  const relative = path.relative(root, id);
  return relative.startsWith("..") || path.isAbsolute(relative)
    ? `/@fs${id}`
    : `/${relative.split(path.sep).join("/")}`;
}
