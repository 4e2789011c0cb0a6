// Bookmarks a visitor made up: refused quietly (the read starts anywhere, the edge cache is not
// bypassed, nothing is echoed), never a 5xx. Only the bookmarks verge issued (sealed) are read.
import { describe, expect, it } from "vitest";
import { productOn, sealed, spyD1 } from "../worker/d1-doubles";
import { D1_BOOKMARK_HEADER } from "../../src/shared/protocol";
import { sealBookmark } from "../../src/server/bookmark-seal";

const REAL = "00000000-00000003-00000000-00000000000000000000000000000000";
/** In D1's format, and after every real bookmark: what the format check alone let through. */
const FORGED = "ffffffff-ffffffff-ffffffff-ffffffffffffffffffffffffffffffff";

const HOSTILE: [string, string][] = [
  ["garbage", "garbage<script>"],
  // Kept by the binding as the session's bookmark: it compares greater than any real one.
  ["one that sorts after every real bookmark", "zzzzzzzz-zzzzzzzz-zzzzzzzz-zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz"],
  ["upper case", REAL.toUpperCase().replace(/^0/, "A")],
  ["one field short", REAL.slice(0, 26)],
  ["a real one with more after it", `${REAL}-0`],
  ["over 256 bytes", `${REAL}${"0".repeat(256)}`],
  ["empty", ""],
  ["in D1's format, all f, unsealed", FORGED],
  ["all f, with a made-up seal", `${FORGED}.${"A".repeat(43)}`],
  ["all f, sealed with another key", await sealBookmark("not the site's secret", FORGED)],
  ["a real one's seal on all f", `${FORGED}.${(await sealed(REAL)).split(".")[1]}`],
];

async function read(headers: Record<string, string>, data: boolean) {
  const { withSession, DB } = spyD1();
  const path = data ? "/guestbook?_data=1" : "/guestbook";
  const answer = await productOn(DB)(path, { headers: data ? { "X-Page-Data": "1", ...headers } : headers });
  return { ...answer, withSession };
}

describe("a bookmark not in D1's format", () => {
  it.each(HOSTILE)("is ignored in the header of page data: %s", async (_, bookmark) => {
    const { response, line, withSession } = await read({ [D1_BOOKMARK_HEADER]: bookmark }, true);
    expect(response.status).toBe(200);
    expect(withSession.mock.calls).toEqual([["first-unconstrained"]]);
    expect(response.headers.has(D1_BOOKMARK_HEADER)).toBe(false);
    expect(line).toMatchObject({ status: 200, level: "info", d1_bookmark: "ignored" });
  });

  it.each(HOSTILE.filter(([, bookmark]) => bookmark !== ""))(
    "is ignored in the cookie of a document: %s",
    async (_, bookmark) => {
      const { response, line, withSession } = await read({ Cookie: `d1-bookmark=${bookmark}` }, false);
      expect(response.status).toBe(200);
      expect(withSession.mock.calls).toEqual([["first-unconstrained"]]);
      expect(response.headers.has("Set-Cookie")).toBe(false);
      expect(line).toMatchObject({ status: 200, d1_bookmark: "ignored" });
    },
  );

  it("does not hide a valid bookmark sent with it: the valid one is used", async () => {
    const { withSession, line } = await read(
      { [D1_BOOKMARK_HEADER]: "zzz", Cookie: `d1-bookmark=${await sealed(REAL)}` },
      true,
    );
    expect(withSession.mock.calls).toEqual([[REAL]]);
    expect(line).toMatchObject({ d1_bookmark: "used" });
  });

  it("does not hide a newer valid one: of two, the later is used", async () => {
    const older = REAL.replace("03", "02");
    const { withSession } = await read(
      { [D1_BOOKMARK_HEADER]: await sealed(older), Cookie: `d1-bookmark=${await sealed(REAL)}` },
      true,
    );
    expect(withSession.mock.calls).toEqual([[REAL]]);
  });
});

describe("a bookmark verge did not issue", () => {
  it("does not let a visitor past the edge cache, on a cached page's document and data", async () => {
    const { DB } = spyD1();
    const request = productOn(DB);
    const forged: Record<string, string>[] = [
      { Cookie: `d1-bookmark=${FORGED}` },
      { "X-Page-Data": "1", [D1_BOOKMARK_HEADER]: FORGED },
    ];
    for (const headers of forged) {
      const { response, line } = await request("/", { headers });
      expect(response.status).toBe(200);
      expect(line.cache).not.toBe("bypass");
      expect(line.d1_bookmark).toBe("ignored");
      expect(response.headers.has(D1_BOOKMARK_HEADER)).toBe(false);
    }
  });

  it("is not read from a cookie without the __Host- prefix over https", async () => {
    const { withSession, DB } = spyD1();
    const { response } = await productOn(DB)("https://verge.example/guestbook", {
      headers: { Cookie: `d1-bookmark=${await sealed(REAL)}` },
    });
    expect(response.status).toBe(200);
    expect(withSession.mock.calls).toEqual([["first-unconstrained"]]);
  });

  it("still lets a bookmark verge issued past the cache, and starts the session from it", async () => {
    const { withSession, DB } = spyD1();
    const request = productOn(DB);
    const { line } = await request("/", { headers: { Cookie: `d1-bookmark=${await sealed(REAL)}` } });
    expect(line.cache).toBe("bypass");
    await request("https://verge.example/guestbook", {
      headers: { Cookie: `__Host-d1-bookmark=${await sealed(REAL)}` },
    });
    expect(withSession.mock.calls).toEqual([[REAL]]);
  });
});
