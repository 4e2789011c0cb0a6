// Bookmarks a visitor made up: refused quietly (the read starts anywhere), never a 5xx.
import { describe, expect, it } from "vitest";
import { productOn, spyD1 } from "../worker/d1-doubles";
import { D1_BOOKMARK_HEADER } from "../../src/shared/protocol";

const REAL = "00000000-00000003-00000000-00000000000000000000000000000000";

const HOSTILE: [string, string][] = [
  ["garbage", "garbage<script>"],
  // Kept by the binding as the session's bookmark: it compares greater than any real one.
  ["one that sorts after every real bookmark", "zzzzzzzz-zzzzzzzz-zzzzzzzz-zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz"],
  ["upper case", REAL.toUpperCase().replace(/^0/, "A")],
  ["one field short", REAL.slice(0, 26)],
  ["a real one with more after it", `${REAL}-0`],
  ["over 256 bytes", `${REAL}${"0".repeat(256)}`],
  ["empty", ""],
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
      { [D1_BOOKMARK_HEADER]: "zzz", Cookie: `d1-bookmark=${REAL}` },
      true,
    );
    expect(withSession.mock.calls).toEqual([[REAL]]);
    expect(line).toMatchObject({ d1_bookmark: "used" });
  });

  it("does not hide a newer valid one: of two, the later is used", async () => {
    const older = REAL.replace("03", "02");
    const { withSession } = await read({ [D1_BOOKMARK_HEADER]: older, Cookie: `d1-bookmark=${REAL}` }, true);
    expect(withSession.mock.calls).toEqual([[REAL]]);
  });
});
