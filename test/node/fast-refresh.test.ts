// Fast Refresh and the dev server's hooks live under `npm run dev` only (vite dev, client/dev.ts):
// the production client build carries none of it. How they behave in the browser is the Chromium
// tests' (test/e2e/fast-refresh.test.ts).
import { describe, expect, it } from "vitest";
import { clientChunks, readBuild } from "./dist";

/** What only React Refresh's runtime or transform, Vite's dev client or verge's dev hooks put into a chunk. */
const DEV_MARKS = [
  "/@react-refresh",
  "$RefreshReg$",
  "$RefreshSig$",
  "performReactRefresh",
  "injectIntoGlobalHook",
  "@vite/client",
  "verge:data-changed",
  "__getReactRefreshIgnoredExports",
  "__vergeRouter",
  "__vergeRefreshMade",
  "__vergeFormContext",
  "__vergeModuleRuns",
  "verge:worker-updated",
];

describe("Fast Refresh and the dev server's hooks", () => {
  it("are nowhere in the production client build", () => {
    const chunks = clientChunks();
    expect(chunks.size).toBeGreaterThan(3);
    for (const [name, code] of chunks) {
      for (const mark of DEV_MARKS) expect(code.includes(mark), `${mark} in ${name}`).toBe(false);
    }
  });

  it("bring no module into a production chunk: not client/dev.ts, nor react-refresh", () => {
    const modules = Object.values(readBuild().chunks).flat();
    expect(modules).toContain("client/hydrate.tsx"); // the report names the modules it holds
    expect(modules.filter((module) => /^client\/dev\.ts$|react-refresh|^\0?\/?@vite/.test(module))).toEqual(
      [],
    );
  });
});
