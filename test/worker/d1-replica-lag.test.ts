// Read replication with a replica that lags (d1-doubles.ts): what a visitor sees right after signing.
import { describe, expect, it } from "vitest";
import { uniqueName } from "./action-helpers";
import { cookieOf, laggingD1, productOn, scriptSign, formSign } from "./d1-doubles";
import { D1_BOOKMARK_HEADER, type ActionSuccess } from "../../src/shared/protocol";

const PAGE_DATA = { "X-Page-Data": "1" };

/** The product on a lagging D1 whose replica has seen the guestbook (as it was before any sign). */
async function lagging() {
  const d1 = laggingD1();
  const request = productOn(d1.DB);
  expect((await request("/guestbook")).response.status).toBe(200);
  return { request, d1 };
}

describe("a replica that lags behind the primary", () => {
  it("never hides the entry from page data right after a JavaScript sign", async () => {
    const { request } = await lagging();
    for (let i = 0; i < 3; i++) {
      const name = uniqueName("lag-js");
      const signed = await request("/guestbook", scriptSign({ name, message: "with JavaScript" }));
      expect(signed.response.status).toBe(200);
      // The answer's page was read in the action's own session, at the primary.
      expect(JSON.stringify((JSON.parse(signed.body) as ActionSuccess).page)).toContain(name);
      const bookmark = signed.response.headers.get(D1_BOOKMARK_HEADER)!;
      const next = await request("/guestbook?_data=1", {
        headers: { ...PAGE_DATA, [D1_BOOKMARK_HEADER]: bookmark },
      });
      expect(next.response.status).toBe(200);
      expect(next.body).toContain(name);
    }
  });

  it("never hides the entry from the page a plain form sign redirects to", async () => {
    const { request } = await lagging();
    for (let i = 0; i < 3; i++) {
      const name = uniqueName("lag-form");
      const signed = await request("/guestbook", formSign({ name, message: "without JavaScript" }));
      expect(signed.response.status).toBe(303);
      const next = await request(signed.response.headers.get("Location")!, {
        headers: { Cookie: cookieOf(signed.response)! },
      });
      expect(next.response.status).toBe(200);
      expect(next.body).toContain(name);
    }
  });

  it("would hide it without the bookmark: the replica still serves the page from before the sign", async () => {
    const { request, d1 } = await lagging();
    const name = uniqueName("lag-none");
    expect((await request("/guestbook", formSign({ name, message: "lost" }))).response.status).toBe(303);
    const document = await request("/guestbook");
    const data = await request("/guestbook?_data=1", { headers: PAGE_DATA });
    expect(document.body).not.toContain(name);
    expect(data.body).not.toContain(name);
    expect(document.line).toMatchObject({ d1_served_by: "WEUR replica" });
    expect(d1.sessions).toEqual([
      "first-unconstrained",
      "first-primary",
      "first-unconstrained",
      "first-unconstrained",
    ]);
  });

  it("logs the primary as the server of a read that needed the visitor's write", async () => {
    const { request } = await lagging();
    const signed = await request("/guestbook", formSign({ name: uniqueName("lag-log"), message: "logged" }));
    const next = await request("/guestbook", { headers: { Cookie: cookieOf(signed.response)! } });
    expect(next.line).toMatchObject({ d1_served_by: "ENAM primary", d1_bookmark: "used" });
  });
});
