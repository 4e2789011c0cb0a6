// What the dev server never hands out, though Vite serves any file under the project's root: a
// build (the worker's bundle and its map hold every server source, loaders and SQL included).
// (Vite already refuses dotfiles: `.dev.vars`, `.wrangler/`.)
import path from "node:path";
import type { Connect } from "vite";

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
