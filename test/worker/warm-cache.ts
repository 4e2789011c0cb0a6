// The workerd files that share one workerd (vitest.config.ts) share its edge cache too. So that no
// file depends on which files ran before it, each starts with the product's cached pages already
// in that cache, HTML and page data: a file that needs them cold belongs to `OWN_STORAGE`.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import worker from "../../src/worker";

/** Every page of the product's route table with a `cache` policy, and a query its key keeps. */
const CACHED = ["/", "/slow", "/guestbook", "/guestbook?page=2"];
/** A document, and the page data a client navigation asks for. */
const KINDS: Record<string, string>[] = [{}, { "X-Page-Data": "1" }];

async function warm() {
  await Promise.all(
    CACHED.flatMap((path) =>
      KINDS.map(async (headers) => {
        const ctx = createExecutionContext();
        const response = await worker.fetch(new Request(`http://localhost${path}`, { headers }), env, ctx);
        await response.arrayBuffer();
        // The cache is written once the answer is whole, in waitUntil.
        await waitOnExecutionContext(ctx);
      }),
    ),
  );
}

// Once per workerd: its storage outlives each file, and so does this global.
const shared = globalThis as { vergeCacheWarmed?: Promise<void> };
shared.vergeCacheWarmed ??= warm();
await shared.vergeCacheWarmed;
