// Finds verge's request log lines in a text stream: one-line JSON (`npm run dev`, Workers Logs
// exports) and the pretty-printed events of `wrangler tail --format json` (lines under logs[].message).

/**
 * Splits text, fed in pieces, into JSON values: a value starts at a line whose first
 * non-blank character is "{" and ends where its braces balance. Other text is skipped.
 */
export function jsonValues(onValue) {
  let buffer = "";
  let depth = 0;
  let inString = false;
  let escaped = false;
  let atLineStart = true;
  return function feed(text) {
    for (const ch of text) {
      if (depth === 0) {
        if (ch === "{" && atLineStart) {
          depth = 1;
          buffer = ch;
        } else if (ch === "\n") atLineStart = true;
        else if (ch !== " " && ch !== "\t" && ch !== "\r") atLineStart = false;
        continue;
      }
      buffer += ch;
      if (inString) {
        if (escaped) escaped = false;
        else if (ch === "\\") escaped = true;
        else if (ch === '"') inString = false;
      } else if (ch === '"') inString = true;
      else if (ch === "{") depth++;
      else if (ch === "}" && --depth === 0) {
        atLineStart = false;
        try {
          onValue(JSON.parse(buffer));
        } catch {
          // Braces balanced but not JSON (a plain-text line that began with "{"): skip it.
        }
      } else if (ch === "\n" && buffer.length > 1_000_000) {
        depth = 0; // runaway capture: not one of ours
      }
    }
  };
}

const isRequestLine = (value) =>
  typeof value === "object" && value !== null && typeof value.kind === "string" && "status" in value;

/** The request log lines inside one JSON value (a line itself, or a tail event carrying them). */
export function requestLines(value) {
  if (isRequestLine(value)) return [value];
  if (!Array.isArray(value?.logs)) return [];
  const found = [];
  for (const log of value.logs) {
    for (const part of Array.isArray(log?.message) ? log.message : [log?.message]) {
      let parsed = part;
      if (typeof part === "string" && part.trimStart().startsWith("{")) {
        try {
          parsed = JSON.parse(part);
        } catch {
          continue;
        }
      }
      if (isRequestLine(parsed)) found.push(parsed);
    }
  }
  return found;
}

/** Builds the filter from parsed options; throws with a message on a bad value. */
export function lineFilter({ digest, ray, status, kind, path }) {
  let statusTest = () => true;
  if (status !== undefined) {
    const range = /^([1-5])xx$/i.exec(status);
    if (range) statusTest = (s) => Math.floor(s / 100) === Number(range[1]);
    else if (/^\d{3}$/.test(status)) statusTest = (s) => s === Number(status);
    else throw new Error(`--status takes a code (404) or a class (5xx), not "${status}"`);
  }
  const pathTest =
    path === undefined
      ? () => true
      : path.endsWith("*")
        ? (p) => String(p).startsWith(path.slice(0, -1))
        : (p) => p === path;
  // A request that captured several errors lists the later ones under `errors`.
  const hasDigest = (line) =>
    line.digest === digest || (Array.isArray(line.errors) && line.errors.some((e) => e?.digest === digest));
  return (line) =>
    (digest === undefined || hasDigest(line)) &&
    (ray === undefined || line.ray === ray) &&
    (kind === undefined || line.kind === kind) &&
    statusTest(Number(line.status)) &&
    pathTest(line.path);
}

// Control characters (C0, DEL, C1: U+009B alone is a terminal's CSI) and bidi overrides, which
// could move the cursor, retitle the window or reorder what the operator reads.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const hex = (ch, width) => ch.charCodeAt(0).toString(16).padStart(width, "0");

/** `text` with every unsafe character as a visible escape (\x1b, \u202e); newlines included. */
export const escapeControls = (text) =>
  String(text).replace(UNSAFE, (ch) => (ch.charCodeAt(0) <= 0xff ? `\\x${hex(ch, 2)}` : `\\u${hex(ch, 4)}`));

/** `value` as one line of JSON with unsafe characters as \u escapes: it still parses to `value`. */
export const safeJson = (value) => JSON.stringify(value).replace(UNSAFE, (ch) => `\\u${hex(ch, 4)}`);
