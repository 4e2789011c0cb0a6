// What the dev server never hands out, though Vite serves any file under the project's root: a
// build (the worker's bundle and its map hold every server source, loaders and SQL included), files
// that are no source of the app (the schema, the package, the config), and a module's whole source.
// (Vite already refuses dotfiles: `.dev.vars`, `.wrangler/`.)
import { statSync } from "node:fs";
import path from "node:path";
import type { Connect } from "vite";
import { isServerOnly } from "./server-only.ts";

/** Vite's own `server.fs.deny`, which a plugin that sets the option replaces. */
const VITE_DENIED = [".env", ".env.*", "*.{crt,pem}", "**/.git/**"];

/** `server.fs.deny` for an app whose build goes to `buildDir` (absolute). */
export function deniedFiles(buildDir: string): string[] {
  return [...VITE_DENIED, `${posix(buildDir)}/**`];
}

const posix = (file: string) => file.split(path.sep).join("/");

/**
 * Answers 404 for any URL of a file in the build's folder (`/dist/…`, `/@fs/…/dist/…`): it is not
 * there for the dev server, which builds nothing. Before Vite's own middlewares.
 */
export function refuseBuilds(root: string, buildDir: string): Connect.NextHandleFunction {
  const inside = `${posix(path.resolve(buildDir))}/`;
  return function refuseBuild(req, res, next) {
    let pathname: string;
    try {
      pathname = decodeURIComponent(new URL(req.url ?? "/", "http://localhost").pathname);
    } catch {
      return next();
    }
    const file = pathname.startsWith("/@fs/") ? pathname.slice(4) : posix(path.join(root, pathname));
    if (!`${posix(path.resolve(file))}/`.startsWith(inside)) return next();
    res.statusCode = 404;
    res.setHeader("Content-Type", "text/plain; charset=utf-8");
    res.end("Not Found: the dev server serves no build\n");
  };
}

/** What a browser loads or a module imports: scripts, styles, data, images, fonts, media, text. */
const ASSET =
  /\.(?:[cm]?[jt]sx?|css|scss|sass|less|styl|pcss|json|map|svg|png|jpe?g|gif|webp|avif|ico|bmp|woff2?|ttf|otf|eot|mp4|webm|ogg|mp3|wav|flac|aac|wasm|txt|md|mdx|pdf|webmanifest)$/i;
/** Modules and stylesheets: all a project's own top folder serves (an entry, app.ts, styles). */
const MODULE = /\.(?:[cm]?[jt]sx?|css|scss|sass|less|styl|pcss)$/i;
const SCRIPT = /\.[cm]?[jt]sx?$/i;

/** The file a URL names under Vite's rules (`/x` under the root, `/@fs/x` absolute), if it is one. */
function fileOf(root: string, pathname: string): string | null {
  if (pathname.startsWith("/@") && !pathname.startsWith("/@fs/")) return null;
  const file = path.resolve(pathname.startsWith("/@fs/") ? pathname.slice(4) : path.join(root, pathname));
  try {
    return statSync(file).isFile() ? file : null;
  } catch {
    return null;
  }
}

/** Why the dev server keeps `file` (asked for with `query`) to itself, or null when it serves it. */
function refusal(root: string, file: string, query: URLSearchParams): string | null {
  if (!ASSET.test(file)) return "not a source or an asset of the app";
  // The project's own top folder (and above it) holds its package, config and docs: only its
  // modules are the app's (an entry such as client.tsx, app.ts).
  const dir = posix(path.dirname(file));
  if (`${posix(root)}/`.startsWith(`${dir}/`) && !MODULE.test(file)) return "not a source of the app";
  // ?raw and ?inline hand out a module's whole source (a page's loader and actions with it), ?url
  // where to get it; the browser asks for none of them of the app's own modules (a worker's
  // ?worker&url aside).
  // A server-only module is refused by verge:server-only, with a page that names the rule.
  const own = !posix(file).includes("/node_modules/") && !isServerOnly(posix(file));
  const asksSource = query.has("raw") || query.has("inline") || (query.has("url") && !query.has("worker"));
  if (own && SCRIPT.test(file) && asksSource) return "a module's source is not served";
  return null;
}

/**
 * Answers 404 for a file that is no source or asset of the app (the D1 schema, package.json,
 * wrangler.toml, README.md) and for `?raw`, `?url` or `?inline` of the app's own modules, which
 * Vite would answer with a module's whole source. Before Vite's own middlewares.
 */
export function refuseNonSources(root: string): Connect.NextHandleFunction {
  return function refuseNonSource(req, res, next) {
    let url: URL;
    let file: string | null;
    try {
      url = new URL(req.url ?? "/", "http://localhost");
      file = fileOf(root, decodeURIComponent(url.pathname));
    } catch {
      return next();
    }
    const why = file && refusal(root, file, url.searchParams);
    if (!why) return next();
    res.statusCode = 404;
    res.setHeader("Content-Type", "text/plain; charset=utf-8");
    res.end(`Not Found: ${why}\n`);
  };
}
