// Where the browser tests find Chromium: now in verge/test/browser; kept for imports of this path.
export { CHROMIUM_PATH, chromiumMissing } from "../../src/test/browser/chromium-path.ts";
