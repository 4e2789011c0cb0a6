// verge:static-files: the files a client build serves beside its chunks, and the rule that a URL
// has one owner. Workers Static Assets answers a request that matches a file before the Worker
// runs, so a file at a route's address would hide that route (its method checks and all): the
// build fails and names both. verge adds robots.txt (every page may be crawled; one that must not
// says so in its meta) when no route or file claims it, and _headers (hashed files cached a year).
import { readdirSync } from "node:fs";
import path from "node:path";
import type { Plugin } from "vite";
import { matchRoute } from "../shared/match-route.ts";
import type { RouteDefinition } from "../shared/routing.ts";
import { isClient, rel, type Verge } from "./context.ts";
import { routeLines, type RouteLine } from "./route-lines.ts";

const ROBOTS = "User-agent: *\nAllow: /\n";
const IMMUTABLE_ASSETS = "/assets/*\n  Cache-Control: public, max-age=31536000, immutable\n";
/** Files Workers Static Assets reads as its own settings and never serves. */
const SETTINGS = new Set(["_headers", "_redirects", ".assetsignore"]);

/** A file the build leaves to Workers Static Assets: its path in the output, and where it comes from. */
export interface StaticFile {
  file: string;
  /** How a person finds it: "public/robots.txt", or "robots.txt, which the build emits". */
  source: string;
}

/**
 * The addresses Workers Static Assets answers with `file`: its own, and under the default
 * html_handling ("auto-trailing-slash") `/about` for about.html and `/docs/` for docs/index.html.
 */
function addresses(file: string): string[] {
  const own = `/${file}`;
  if (!own.endsWith(".html")) return [own];
  return [own, own.endsWith("/index.html") ? own.slice(0, -"index.html".length) : own.slice(0, -5)];
}

/** The route line that answers `pathname`, as the Worker would pick it (its first match). */
function owner(lines: readonly RouteLine[], pathname: string): RouteLine | undefined {
  // matchRoute reads `path` alone: the line stands in for the definition the Worker holds.
  const table = lines.map((line) => ({ ...line, path: line.pattern }));
  return matchRoute(table as unknown as RouteDefinition<RouteLine>[], pathname)?.route as
    RouteLine | undefined;
}

/** One sentence per file that answers an address a route line also claims; empty when none does. */
export function shadowedRoutes(files: readonly StaticFile[], lines: readonly RouteLine[]): string[] {
  return files.flatMap(({ file, source }) => {
    if (SETTINGS.has(file)) return [];
    for (const address of addresses(file)) {
      const line = owner(lines, address);
      if (!line) continue;
      return [
        `${address} has two owners: the file ${source}, which Workers Static Assets serves before ` +
          `the Worker runs, and the route line ${line.kind}("${line.pattern}") at ${line.at}; keep one.`,
      ];
    }
    return [];
  });
}

/** Every file under the public folder (Vite copies it into the client build as it is). */
function publicFiles(root: string, publicDir: string): StaticFile[] {
  if (!publicDir) return [];
  try {
    return readdirSync(publicDir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => {
        const full = path.join(entry.parentPath, entry.name);
        const file = path.relative(publicDir, full).split(path.sep).join("/");
        return { file, source: path.relative(root, full).split(path.sep).join("/") };
      });
  } catch {
    return []; // no public folder
  }
}

export function staticFiles(verge: Verge): Plugin {
  /** Each module's route lines, by module id, as the client build reads them. */
  const table = new Map<string, RouteLine[]>();
  return {
    name: "verge:static-files",
    enforce: "pre",
    sharedDuringBuild: true,
    transform: {
      // Before verge:server-only cuts anything: the lines are those of the file as written.
      order: "pre",
      handler(code, id) {
        if (!isClient(this) || verge.serving || id.includes("/node_modules/") || id.startsWith("\0")) {
          return undefined;
        }
        const file = rel(verge, id);
        if (/\.[cm]?[jt]sx?$/.test(file)) table.set(id, routeLines(file, code));
        return undefined;
      },
    },
    generateBundle: {
      // After other plugins have emitted their files: each is checked.
      order: "post",
      handler(_, bundle) {
        if (!isClient(this)) return;
        const { root, publicDir } = verge.config;
        const lines = [...table.values()].flat();
        const files = [
          ...publicFiles(root, publicDir),
          ...Object.keys(bundle).map((file) => ({ file, source: `${file}, which the build emits` })),
        ];
        if (!owner(lines, "/robots.txt") && !files.some(({ file }) => file === "robots.txt")) {
          this.emitFile({ type: "asset", fileName: "robots.txt", source: ROBOTS });
        }
        this.emitFile({ type: "asset", fileName: "_headers", source: IMMUTABLE_ASSETS });
        const clashes = shadowedRoutes(files, lines);
        if (clashes.length > 0) this.error(clashes.join("\n"));
      },
    },
  };
}
