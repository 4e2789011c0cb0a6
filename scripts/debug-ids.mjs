// Sentry debug IDs for a built bundle: what lets Sentry (and `npm run logs`) pair a minified file
// with its source map without trusting URLs or releases. verge/vite appends debugIdSnippet to each
// chunk it renders and writes each map withDebugId.
import { createHash } from "node:crypto";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");

const DEBUG_ID_LINE = /^\/\/# debugId=([0-9a-f-]{36})\s*$/im;

/**
 * A UUID derived from the file and its map: the same build gives the same ID (reproducible
 * builds, nothing to store), and a change to either gives another (a source edit that leaves
 * the minified code alone still moves the map, so it gets its own ID).
 */
function debugIdOf(code, mapText) {
  const hash = createHash("sha256").update(code).update("\0").update(mapText).digest();
  hash[6] = (hash[6] & 0x0f) | 0x40; // shaped as a version 4 UUID, which every Sentry tool accepts
  hash[8] = (hash[8] & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The registration Sentry's SDK reads (@sentry/core applyDebugIds): globalThis._sentryDebugIds maps
 * a stack captured inside the file to its ID, and the SDK takes the file's URL from that stack's
 * frame. sentry-cli's own snippet also probes window/global and sets a second global: with its
 * comment, ~570 bytes gzipped over the home page's three chunks where this adds ~260, which the
 * page's byte budget (test/node/budgets.test.ts) can afford. `self` is the global object in
 * browsers and workerd alike; the try keeps an odd page (a frozen or primitive _sentryDebugIds,
 * or Node, which has no `self`) from failing the module.
 */
const registration = (id) => `try{(self._sentryDebugIds??={})[Error().stack]="${id}"}catch{}`;

/**
 * What the build appends to each chunk (verge/vite, as it renders it): the registration and the
 * `//# debugId=` comment, with an ID derived from the chunk's code. Appended, so no mapping moves.
 */
export function debugIdSnippet(code) {
  const id = debugIdOf(code, "");
  return `${registration(id)}\n//# debugId=${id}\n`;
}

/**
 * The map of a chunk that carries a debug ID (debugIdSnippet), as Sentry pairs them: the same ID
 * as `debug_id` and `debugId`, and sources relative to the project root ("src/app/pages/home.tsx")
 * where they were relative to `mapDir`.
 */
export function withDebugId(map, code, mapDir) {
  const id = readDebugId(code);
  if (!id) throw new Error("the chunk carries no debug ID");
  const base = path.resolve(mapDir, map.sourceRoot ?? "");
  const sources = map.sources.map((source) => posix(path.relative(root, path.resolve(base, source))));
  const { sourceRoot, ...rest } = map;
  return JSON.stringify({ ...rest, sources, debug_id: id, debugId: id });
}

const posix = (file) => file.split(path.sep).join("/");

/** The debug ID a built file carries in its `//# debugId=` comment, or undefined. */
export function readDebugId(code) {
  return DEBUG_ID_LINE.exec(code.slice(-200))?.[1];
}
