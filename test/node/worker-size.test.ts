// The worker's byte budget from issue 6 (the client's is in client-size.test.ts): what
// `wrangler deploy` would upload stays under 130 KB gzip (KiB, as wrangler itself reports sizes).
import { describe, expect, it } from "vitest";
import { workerBundle } from "../../scripts/bench/sizes.mjs";

const BUDGET_BYTES = 130 * 1024;

describe("worker bundle size", () => {
  it("keeps the bundle wrangler deploy uploads under 130 KB gzip", async () => {
    const bundle = await workerBundle();
    console.log(`worker bundle: ${bundle.raw} B raw, ${bundle.gzip} B gzip`);
    expect(bundle.gzip).toBeLessThan(BUDGET_BYTES);
  });
});
