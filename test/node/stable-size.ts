// The size a byte budget holds: a built file gzipped, with what other files' content puts in it
// replaced by stand-ins, so that the same source measures the same whatever else was built beside it.
import { createHash } from "node:crypto";
import { gzipSize } from "./dist";

/** A chunk's file name as another chunk imports it: "./shell-Cd8WYtXD.js" (the hash: 8 characters). */
const HASHED_NAME = /([\w.-]+?)-[\w-]{8}\.(js|css)(?=["'`])/g;
/** A Sentry debug ID (scripts/debug-ids.mjs): derived from the chunk's code, hashes of others included. */
const DEBUG_ID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

const digest = (text: string) => createHash("sha256").update(text).digest();

/**
 * `code` as a budget measures it. Hashes are random-looking text: a stand-in of the same length and
 * kind keeps the gzip size what it was, up to a few bytes, where a run of zeros would shrink it.
 * - a hashed file name gets a stand-in made from its name ("shell") and, for two files of one name
 *   (two chunks named form-submit), the order they first appear in: the same in every build;
 * - a debug ID gets one made from the code once the names are replaced.
 * What stays variable is the minifier's short names for other chunks' exports (`import{A as e}`):
 * their letters, and so the order of the local names bound to them, follow what every chunk imports.
 */
export function stableText(code: string): string {
  const standIns = new Map<string, string>();
  /** How many files of each name ("form-submit.js") have a stand-in so far. */
  const seen = new Map<string, number>();
  const named = code.replace(HASHED_NAME, (file: string, name: string, ext: string) => {
    let standIn = standIns.get(file);
    if (!standIn) {
      const nth = seen.get(`${name}.${ext}`) ?? 0;
      seen.set(`${name}.${ext}`, nth + 1);
      standIn = `${name}-${digest(`${name}.${ext}#${nth}`).toString("base64url").slice(0, 8)}.${ext}`;
      standIns.set(file, standIn);
    }
    return standIn;
  });
  const hex = digest(named.replace(DEBUG_ID, "")).toString("hex");
  const id = [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20, 32)];
  return named.replace(DEBUG_ID, id.join("-"));
}

/** The gzipped size of `code` as a budget measures it (stableText). */
export const stableGzip = (code: string): number => gzipSize(stableText(code));
