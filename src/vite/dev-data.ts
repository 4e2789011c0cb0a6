// Under `vite dev`: a save the browser's code does not see (a loader, an action, `*.server.ts`)
// makes the open page fetch its data again, in place, through its router (client/app.tsx). A page
// file whose browser code is unchanged by the save (only its loader changed) is not sent to the
// browser at all: a refresh would do nothing, and its data would stay old.
import type { HotUpdateOptions } from "vite";
import { DATA_CHANGED_EVENT } from "../shared/fast-refresh-hook.ts";
import { withoutServerExports } from "./server-exports.ts";

/** The hotUpdate hook's `this`, as far as it is read here. */
interface HookContext {
  environment: { config: { consumer: string } };
}

/**
 * The dev server's hook. `browserSource` holds what the browser was last given of each file
 * (before other transforms), by file path.
 */
export function serverEdits(browserSource: Map<string, string>) {
  const unchangedForBrowser = async (options: HotUpdateOptions) => {
    const before = browserSource.get(options.file);
    if (before === undefined) return true;
    const now = await options.read();
    return (withoutServerExports(options.file, now) ?? now) === before;
  };
  return async function hotUpdate(this: HookContext, options: HotUpdateOptions) {
    if (options.modules.length === 0 || !(await unchangedForBrowser(options))) return undefined;
    if (this.environment.config.consumer === "client") return [];
    // Sent once the worker has this update, so the page's request runs the new code.
    const client = options.server.environments.client;
    setTimeout(() => client.hot.send({ type: "custom", event: DATA_CHANGED_EVENT }), 50);
    return undefined;
  };
}
