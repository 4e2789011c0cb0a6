// The runtime's one view of the local servers. The client manifest's mode is "development" under
// `vite dev` only (verge/vite): there every page renders (a loader edit changes no build id, so a
// stored page would show the code as it was). LOCAL_SERVER is set by `npm run dev` and
// `npm run preview` (scripts/serve.mjs): their answers carry Server-Timing, which only the
// developer sees, and a refused body is read behind its answer (local-body-drain.ts).
import type { AppContext } from "./context";

/** Whether this request is served by `vite dev`. */
export function underDevServer(c: AppContext): boolean {
  return c.get("app")?.manifest.mode === "development";
}

/** Whether this request is served by `npm run dev` or `npm run preview`, not deployed. */
export function underLocalServer(c: AppContext): boolean {
  return underDevServer(c) || Boolean((c.env as { LOCAL_SERVER?: string } | undefined)?.LOCAL_SERVER);
}
