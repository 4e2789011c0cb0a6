// A stored shell's format in the edge cache: the prelude, React's postponed state and the page
// data, one after the other, their lengths, build and id in the entry's headers; and its reading,
// checked before anything is sent, with what the isolate keeps of a shell once read.
import type { PostponedState } from "react-dom/static";
import type { PageData } from "../shared/protocol";
import type { AppContext } from "./context";
import { waitUntil } from "./capture";
import { documentBytes, edgeCache, PLACEHOLDER_HEADER, type StoredAnswer } from "./cache-entry";
import { HTML_CONTENT_TYPE } from "./respond";
import { requestNonce } from "./headers";
import { isPostponedState, RENDERER } from "./react-couplings";

/**
 * Kept with a stored shell: where its document ends and React's postponed state begins, where
 * that ends and the page's data begins, and its build.
 */
const PRELUDE_LENGTH_HEADER = "X-Verge-Prelude-Length";
const POSTPONED_LENGTH_HEADER = "X-Verge-Postponed-Length";
const SHELL_BUILD_HEADER = "X-Verge-Build";
/** And the React build that wrote its state: only the same one resumes it (react-couplings.ts). */
const SHELL_RENDERER_HEADER = "X-Verge-Renderer";
/** A stored shell's own name: its state, once read, is kept under it (readStates). */
const SHELL_ID_HEADER = "X-Verge-Shell";
/** A page's shell: its document up to the holes, and what React needs to resume them. */
export interface Shell {
  /** The document under one nonce (the placeholder while stored, the visitor's once sent). */
  prelude: Uint8Array<ArrayBuffer>;
  /**
   * What React resumes the holes from (as JSON text when it is parsed only as they are resumed);
   * null when nothing was left pending: the prelude is the whole document.
   */
  postponed: PostponedState | string | null;
  /** The page the shell shows, deferred values settled: what the holes are resumed with. */
  page: PageData;
  /** False when the shell may be sent but not stored (sealed()). */
  storable?: boolean;
  /** A stored shell's: lets it go, entry and kept state, when React cannot resume it. */
  forget?: () => void;
}

/** What the edge cache keeps of `shell`, made by `build`. */
export function shellEntry(shell: Shell, build: string): StoredAnswer {
  const postponed = new TextEncoder().encode(JSON.stringify(shell.postponed));
  const page = new TextEncoder().encode(JSON.stringify(shell.page));
  return {
    body: new Blob([shell.prelude, postponed, page]),
    type: HTML_CONTENT_TYPE,
    headers: {
      [PRELUDE_LENGTH_HEADER]: String(shell.prelude.byteLength),
      [POSTPONED_LENGTH_HEADER]: String(postponed.byteLength),
      [SHELL_BUILD_HEADER]: build,
      [SHELL_RENDERER_HEADER]: RENDERER,
      [SHELL_ID_HEADER]: crypto.randomUUID(),
    },
  };
}

/**
 * A stored shell under this request's nonce, or why it cannot be used: made by another build or
 * renderer, cut short, its state unreadable.
 */
export async function storedShell(c: AppContext, entry: Response, key: Request): Promise<Shell | string> {
  const build = entry.headers.get(SHELL_BUILD_HEADER);
  const preludeLength = Number(entry.headers.get(PRELUDE_LENGTH_HEADER));
  const postponedLength = Number(entry.headers.get(POSTPONED_LENGTH_HEADER));
  if (build !== c.get("app").manifest.build) {
    await entry.body?.cancel();
    return "another build";
  }
  if (entry.headers.get(SHELL_RENDERER_HEADER) !== RENDERER) {
    await entry.body?.cancel();
    return "another renderer";
  }
  const lengths = [preludeLength, postponedLength];
  if (!entry.headers.has(PLACEHOLDER_HEADER) || !lengths.every((n) => Number.isSafeInteger(n) && n >= 0)) {
    await entry.body?.cancel();
    return "not a shell";
  }
  const pageAt = preludeLength + postponedLength;
  const id = entry.headers.get(SHELL_ID_HEADER);
  const forget = () => {
    if (id !== null) readStates.delete(id);
    waitUntil(
      c,
      edgeCache()
        .delete(key)
        .catch(() => false),
    );
  };
  // Read before in this isolate: only the prelude is read again, and React's state, known to be
  // its shape, is parsed once the prelude is on its way.
  const known = id === null ? undefined : readStates.get(id);
  if (known) {
    const prelude = await documentBytes(entry, requestNonce(c), preludeLength);
    if (!prelude) return "cut short";
    readStates.delete(id!);
    readStates.set(id!, known); // most recently used last: the first is the one to let go
    return { prelude, ...known, forget };
  }
  const bytes = await documentBytes(entry, requestNonce(c));
  if (!bytes || pageAt > bytes.byteLength) return "cut short";
  const postponedText = new TextDecoder().decode(bytes.subarray(preludeLength, pageAt));
  const postponed = parsed(postponedText);
  const page = parsed(new TextDecoder().decode(bytes.subarray(pageAt))) as PageData | undefined;
  const readable = postponed === null || isPostponedState(postponed);
  if (!readable || typeof page?.route !== "string") return "unreadable state";
  if (id !== null) {
    readStates.set(id, { page: deepFrozen(page), postponed: postponed === null ? null : postponedText });
    if (readStates.size > READ_STATES_KEPT) readStates.delete(readStates.keys().next().value!);
  }
  return { prelude: bytes.subarray(0, preludeLength), postponed, page, forget };
}

/** JSON's value, or undefined if it is not JSON. */
function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Stored shells' states as read, by shell id, the most recently used few, per isolate: the page
 * data, the same for every visitor and most of a shell's state, parsed once and kept frozen, so
 * that no page can change what the next visitor's holes are rendered with; React's state as its
 * checked JSON text, parsed for each request (resume() changes what it is given).
 */
const readStates = new Map<string, { page: PageData; postponed: string | null }>();
const READ_STATES_KEPT = 32;

function deepFrozen<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFrozen(child);
  }
  return value;
}
