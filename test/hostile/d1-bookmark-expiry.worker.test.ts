// A sealed bookmark is good for a short while only: past D1_BOOKMARK_MAX_AGE_S it is ignored, page
// data never renews it, and a D1_BOOKMARK_SECRET too short to seal with is refused at start.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { productOn, spyD1 } from "../worker/d1-doubles";
import { productApp } from "../worker/apps";
import { D1_BOOKMARK_HEADER, D1_BOOKMARK_MAX_AGE_S } from "../../src/shared/protocol";
import { sealBookmark } from "../../src/server/bookmark-seal";

const REAL = "00000000-00000003-00000000-00000000000000000000000000000000";

/** Sealed with the tests' key as if issued `ageS` seconds ago. */
const sealedAgo = (ageS: number) => sealBookmark(env.D1_BOOKMARK_SECRET, REAL, Date.now() - ageS * 1000);

async function pageData(bookmark: string) {
  const { withSession, DB } = spyD1();
  const answer = await productOn(DB)("/guestbook?_data=1", {
    headers: { "X-Page-Data": "1", [D1_BOOKMARK_HEADER]: bookmark },
  });
  return { ...answer, withSession };
}

afterEach(() => void vi.useRealTimers());

describe("a sealed bookmark's lifetime", () => {
  it("is used while it is young", async () => {
    const { withSession } = await pageData(await sealedAgo(5));
    expect(withSession.mock.calls).toEqual([[REAL]]);
  });

  it("is ignored once older than its lifetime: no read from it, no cache bypass", async () => {
    const { withSession, line, response } = await pageData(await sealedAgo(D1_BOOKMARK_MAX_AGE_S + 22));
    expect(withSession.mock.calls).toEqual([["first-unconstrained"]]);
    expect(line).toMatchObject({ d1_bookmark: "ignored" });
    expect(response.headers.has(D1_BOOKMARK_HEADER)).toBe(false);
  });

  it("is not renewed by page data: what comes back expires when the write's bookmark does", async () => {
    const { response } = await pageData(await sealedAgo(D1_BOOKMARK_MAX_AGE_S - 10));
    const returned = response.headers.get(D1_BOOKMARK_HEADER);
    expect(returned).not.toBeNull();
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 15_000);
    const { withSession } = await pageData(returned!);
    expect(withSession.mock.calls).toEqual([["first-unconstrained"]]);
  });
});

describe("a D1_BOOKMARK_SECRET shorter than 32 bytes", () => {
  it("answers 500 to every request and logs why and what to do", async () => {
    const lines: Record<string, unknown>[] = [];
    const app = productApp({ reportError: () => {}, log: (line) => void lines.push(JSON.parse(line)) });
    for (const path of ["/", "/guestbook"]) {
      const ctx = createExecutionContext();
      const response = await app.fetch(
        new Request(`http://localhost${path}`),
        { ...env, D1_BOOKMARK_SECRET: "hunter2" },
        ctx,
      );
      await response.text();
      await waitOnExecutionContext(ctx);
      expect(response.status).toBe(500);
      expect(lines.at(-1)).toMatchObject({ level: "error", status: 500 });
      expect(String(lines.at(-1)!.message)).toMatch(/D1_BOOKMARK_SECRET.*32 bytes/);
      expect(String(lines.at(-1)!.message)).not.toContain("hunter2");
    }
  });
});
