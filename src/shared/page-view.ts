// A page's data as the page sees it (what JSON gives back, deferred values kept), and the title
// and head tags the page makes of it. Server code: the browser gets the same shape from the JSON.
import type { PageMeta, RouteModule } from "./route-module";

/**
 * The data as the page receives it: through JSON (a Date as its string, undefined fields gone),
 * top-level Promises kept for <Await>. The server renders with it, as the browser hydrates with
 * it, and `title` and `meta` are called with it (loadPage makes it once per request).
 */
export function pageView(data: unknown): unknown {
  if (typeof data !== "object" || data === null) return data ?? null;
  if (Array.isArray(data)) return json(data);
  const entries = Object.entries(data).map(([key, value]) =>
    value instanceof Promise ? [key, value] : [key, value === undefined ? undefined : json(value)],
  );
  return Object.fromEntries(entries.filter(([, v]) => v !== undefined));
}

/** `value` through JSON; `value` itself when JSON would give it back unchanged (most data). */
const json = (value: unknown): unknown => {
  if (jsonNative(value, 0)) return value;
  const text = JSON.stringify(value);
  return text === undefined ? undefined : JSON.parse(text);
};

/** Past this depth JSON itself decides (and refuses a cycle). */
const NATIVE_DEPTH = 64;

/**
 * Whether JSON.parse(JSON.stringify(value)) would equal `value`: strings, booleans, finite numbers
 * (not -0), null, and arrays and plain objects of them, with no undefined, holes or toJSON. The
 * walk costs a fraction of the round trip (a parse builds every row anew: 0.23 ms of /items'
 * 500 rows), so only data that JSON changes pays for one.
 */
function jsonNative(value: unknown, depth: number): boolean {
  switch (typeof value) {
    case "string":
    case "boolean":
      return true;
    case "number":
      return Number.isFinite(value) && !Object.is(value, -0);
    case "object":
      break;
    default:
      return false;
  }
  if (value === null) return true;
  if (depth > NATIVE_DEPTH || typeof (value as { toJSON?: unknown }).toJSON === "function") return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      if (!(i in value) || !jsonNative(value[i], depth + 1)) return false;
    }
    return true;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return false;
  for (const key in value) {
    if (!jsonNative((value as Record<string, unknown>)[key], depth + 1)) return false;
  }
  return true;
}

/** The page's title, from its data as the page sees it (pageView). */
export function titleOf(module: Pick<RouteModule, "title">, view: unknown): string {
  return typeof module.title === "function" ? module.title(view) : module.title;
}

/** The page's own head tags, from its data as the page sees it (pageView). */
export function metaOf(module: Pick<RouteModule, "meta">, view: unknown): PageMeta | undefined {
  return typeof module.meta === "function" ? module.meta(view) : module.meta;
}
