// The same-site relay for browser Sentry envelopes. (Issue 5 implements the protocol.)
import { HttpError } from "./errors";
import { STATUS } from "./protocol";
import type { AppContext } from "./context";

export const DEFAULT_RELAY_PATH = "/monitoring";

export function relayPath(env: Env): string {
  return env.SENTRY_RELAY_PATH || DEFAULT_RELAY_PATH;
}

export async function relayResponse(_c: AppContext): Promise<Response> {
  throw new HttpError(STATUS.notFound, "Not Found");
}
