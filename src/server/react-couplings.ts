// What the runtime relies on in React's server renderer beyond its public API, in one place, each
// with the react-dom version it was read from. Each fails closed (a shell not stored, not resumed,
// or made anew), so an upgrade that breaks one costs speed, never a wrong page; the worker test
// react-couplings.test.tsx names the one that broke. Two more are the build's
// (src/vite/renderer.ts): verge/vite hands React's Node build three of its built-ins lazily by
// matching its require() calls, and its own UTF-8 count for its Buffer.byteLength call;
// test/node/worker-bundle.test.ts and utf8-length.test.ts fail when an upgrade changes them.
import { version } from "react-dom/server";
import type { PostponedState } from "react-dom/static";
import renderer from "virtual:verge/renderer";

/** The react-dom version every coupling below was read from. */
export const READ_FROM = "19.3.1";

/**
 * Which of React's server builds renders here (verge/vite's `renderer` option, which resolves
 * `react-dom/server` to it), and its version. A stored shell records it, and another renderer
 * never resumes it: the builds key useActionState differently (md5, murmurhash).
 */
export const RENDERER = `${renderer} ${version}`;

/**
 * The two scripts React's prerender writes into a prelude without a nonce (it is given none): its
 * paint-timing script, and the bootstrap tag of `entry` (react-dom 19.2 to 19.3.1). The shell
 * puts the render's nonce on these and on no other script (shell.tsx, sealed()).
 */
export function preludeScripts(entry: string): string[] {
  return [
    "<script>requestAnimationFrame(function(){$RT=performance.now()});</script>",
    `<script type="module" src="${escapeAttribute(entry)}" id="_R_" async="">`,
  ];
}

const escapeAttribute = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/**
 * The macrotask turns React takes, once what a prerender waits on has settled, to render what it
 * unblocks (the edge build schedules its work with setTimeout, the Node build with setImmediate).
 * With react-dom 19.3.1 one turn was enough for either build, even two boundaries deep, and none
 * was not; the second is margin. A shell's prerender stops after them (shell.tsx).
 */
const PRERENDER_TURNS = 2;

/** Resolves after React's turns to finish a prerender whose data has settled. */
export async function prerenderTurns(): Promise<void> {
  for (let turn = 0; turn < PRERENDER_TURNS; turn++) {
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}

/**
 * Whether `value` has the shape of the state React's prerender leaves: its private fields
 * (react-dom 19.2 to 19.3.1, both builds).
 */
export function isPostponedState(value: unknown): value is PostponedState {
  const state = value as Record<string, unknown> | null;
  const object = (field: unknown) => typeof field === "object" && field !== null;
  return (
    object(state) &&
    typeof state!.nextSegmentId === "number" &&
    typeof state!.progressiveChunkSize === "number" &&
    object(state!.rootFormatContext) &&
    object(state!.resumableState) &&
    Array.isArray(state!.replayNodes) &&
    (typeof state!.replaySlots === "number" || typeof state!.replaySlots === "object") &&
    // Something to resume: holes inside the tree, or the root itself (its slots a number).
    (state!.replayNodes.length > 0 || typeof state!.replaySlots === "number")
  );
}

/**
 * Whether React gave a boundary up because the state does not fit the tree it replays (its words
 * in react-dom 19.2 to 19.3.1, development and production alike): the shell's fault, not the
 * visitor's.
 */
export const doesNotFit = (error: unknown) =>
  error instanceof Error && error.message.includes("The tree doesn't match so React will fallback");
