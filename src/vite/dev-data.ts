// Under `vite dev`: a save the browser's code does not see (a loader, an action, `*.server.ts`)
// makes the open page fetch its data again, in place, through its router (client/dev.ts), once the
// worker says it runs the saved code (src/server/dev.ts). A page file whose browser code is
// unchanged by the save (only its loader changed) is not sent to the browser at all: a refresh
// would do nothing, and its data would stay old.
import type { DevEnvironment, HotUpdateOptions } from "vite";
import { DATA_CHANGED_EVENT } from "../shared/dev-seam.ts";
import { WORKER_UPDATED_EVENT, type WorkerUpdated } from "../server/dev.ts";
import { withoutServerExports } from "./server-exports.ts";

/** The hotUpdate hook's `this`, as far as it is read here. */
interface HookContext {
  environment: Pick<DevEnvironment, "hot"> & { config: { consumer: string } };
}

/**
 * The dev server's hook. `browserSource` holds what the browser was last given of each file
 * (before other transforms), by file path.
 */
export function serverEdits(browserSource: Map<string, string>) {
  /** Saves of server code the worker has not yet said it runs: each file's save timestamp. */
  const awaited = new Map<string, number>();
  /** The worker environments whose confirmations are heard (one listener each). */
  const heard = new WeakSet<object>();
  const unchangedForBrowser = async (options: HotUpdateOptions) => {
    const before = browserSource.get(options.file);
    if (before === undefined) return true;
    const now = await options.read();
    return (withoutServerExports(options.file, now) ?? now) === before;
  };
  return async function hotUpdate(this: HookContext, options: HotUpdateOptions) {
    if (options.modules.length === 0 || !(await unchangedForBrowser(options))) return undefined;
    if (this.environment.config.consumer === "client") return [];
    const client = options.server.environments.client;
    if (!heard.has(this.environment)) {
      heard.add(this.environment);
      this.environment.hot.on(WORKER_UPDATED_EVENT, (data: WorkerUpdated | undefined) => {
        const taken = [...awaited].filter(([file, at]) => file === data?.file || at === data?.timestamp);
        for (const [file] of taken) awaited.delete(file);
        if (taken.length > 0) client.hot.send({ type: "custom", event: DATA_CHANGED_EVENT });
      });
    }
    awaited.set(options.file, options.timestamp);
    return undefined;
  };
}
