// Where browser tests find Chromium (Debian's, or the one CHROMIUM_PATH names), and the one line
// that says what to do when it is missing. No playwright here: vitest.config.ts reads it.
import { accessSync, constants } from "node:fs";

/** Debian's Chromium, or the browser CHROMIUM_PATH names. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Why the browser tests cannot run here, in one line, or null when Chromium is there. */
export function chromiumMissing(): string | null {
  try {
    accessSync(CHROMIUM_PATH, constants.X_OK);
    return null;
  } catch {
    return (
      `No Chromium at ${CHROMIUM_PATH}: install it (apt-get install -y chromium) or set CHROMIUM_PATH; ` +
      "without it, `npm run test:workerd` and `npm run test:node` run the other tests."
    );
  }
}
