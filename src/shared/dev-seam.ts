// The runtime's one seam with `npm run dev` in the browser: what Fast Refresh and the dev server
// need from the runtime's modules passes through here, and only client/dev.ts (which the dev
// server's entry loads first) plugs into it. Production calls none of it (every call sits behind a
// NODE_ENV check, so the build drops it), and in the worker nothing plugs in.
import type { ClientRouter } from "./router-context";

/** The event `vite dev` sends the page once the worker runs a save of server code: it refetches its data. */
export const DATA_CHANGED_EVENT = "verge:data-changed";

/** What client/dev.ts plugs in: React Refresh's registration of a component under an id. */
export interface DevHooks {
  register(type: unknown, id: string): void;
}

let hooks: DevHooks | undefined;
let router: ClientRouter | undefined;
/** The module whose top-level code runs now, as verge/vite marks it (src/vite/dev-refresh.ts). */
let running: string | null = null;
/** How many components the running module has made under each name: the id of the next. */
let made = new Map<string, number>();
/** Values a module makes once per document, however often it runs (formFor's form context). */
const kept = new Map<string, unknown>();

/** client/dev.ts, first thing in the dev server's page. */
export function plugIntoDev(given: DevHooks): void {
  hooks = given;
}

/** verge/vite's mark at the top (the file) and the bottom (null) of a module that makes components. */
export function moduleRuns(file: string | null): void {
  running = file;
  made = new Map();
}

/**
 * Tells Fast Refresh about a component made at a module's top, which its transform cannot see:
 * registered under that module and its place in it, the component made when the module runs again
 * after an edit is the same component to React, which keeps its state and its DOM (typed text).
 */
export function madeForRefresh(type: unknown, name: string): void {
  if (!hooks || running === null) return;
  const key = `${running} ${name}`;
  const index = made.get(key) ?? 0;
  made.set(key, index + 1);
  hooks.register(type, `${key}#${index}`);
}

/** The value `make` gave the first time under `key` in this document: a module run again keeps it. */
export function keptAcrossRuns<T>(key: string, make: () => T): T {
  if (!kept.has(key)) kept.set(key, make());
  return kept.get(key) as T;
}

/** client/app.tsx hands over its router: the page's data shown again goes through it. */
export function routerForDev(given: ClientRouter): void {
  router = given;
}

export const devRouter = (): ClientRouter | undefined => router;
