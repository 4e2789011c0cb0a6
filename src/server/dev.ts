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

/**
 * What the worker tells `vite dev` when it has taken a save in (src/vite/dev-data.ts): the save's
 * timestamp, or the file saved when it reloads every module.
 */
export const WORKER_UPDATED_EVENT = "verge:worker-updated";

export interface WorkerUpdated {
  timestamp?: number;
  file?: string;
}

// Under `vite dev` only (the build has no import.meta.hot). The module runner calls these once the
// worker entry runs the saved modules, or once it has dropped every module to load them again: a
// request from then on runs the new code. A listener stays registered until this module runs
// again, so no save goes unconfirmed.
const hot = import.meta.hot;
hot?.on("vite:afterUpdate", (payload: { updates: { timestamp: number }[] }) =>
  hot.send(WORKER_UPDATED_EVENT, { timestamp: payload.updates[0]?.timestamp } satisfies WorkerUpdated),
);
hot?.on("vite:beforeFullReload", (payload: { triggeredBy?: string }) =>
  hot.send(WORKER_UPDATED_EVENT, { file: payload.triggeredBy } satisfies WorkerUpdated),
);
