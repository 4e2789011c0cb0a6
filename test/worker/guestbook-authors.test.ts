// The signed-in guestbook: an entry carries its author, and only its author deletes it (action
// `delete`, field `id`), with and without JavaScript; anyone else gets 403 and nothing changes.
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { BUILD, ORIGIN, uniqueName, visitorIp } from "./action-helpers";
import { formAs, getAs, signUp } from "./sign-in-support";

const rowOf = (id: number) =>
  env.DB.prepare("SELECT id, author_id FROM guestbook WHERE id = ?")
    .bind(id)
    .first<{ author_id: string | null }>();

/** Signs the guestbook as the visitor with `cookie`; the new entry's id. */
async function signAs(cookie: string, name = uniqueName("author")) {
  const response = await formAs("/guestbook", { _action: "sign", name, message: "mine" }, cookie);
  expect(response.status).toBe(303);
  const row = await env.DB.prepare("SELECT id FROM guestbook WHERE name = ?")
    .bind(name)
    .first<{ id: number }>();
  return row!.id;
}

/** What the page's script sends for an action, as the visitor with `cookie`. */
const scriptAs = (action: string, fields: Record<string, string>, cookie = "") =>
  exports.default.fetch(`${ORIGIN}/guestbook`, {
    method: "POST",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      "X-Action": action,
      "X-Build": BUILD,
      Origin: ORIGIN,
      "CF-Connecting-IP": visitorIp(),
      ...(cookie ? { Cookie: cookie } : {}),
    },
    body: new URLSearchParams(fields).toString(),
  });

describe("the guestbook, signed in", () => {
  it("stores the author of an entry signed while signed in, and none for an anonymous one", async () => {
    const visitor = await signUp(uniqueName("Grace"));
    expect(await rowOf(await signAs(visitor.cookie))).toMatchObject({ author_id: visitor.accountId });
    expect(await rowOf(await signAs(""))).toMatchObject({ author_id: null });
  });

  it("lets the author delete their entry without JavaScript (303, gone)", async () => {
    const visitor = await signUp(uniqueName("Ada"));
    const id = await signAs(visitor.cookie);
    const response = await formAs("/guestbook", { _action: "delete", id: String(id) }, visitor.cookie);
    expect(response.status).toBe(303);
    expect(await rowOf(id)).toBeNull();
  });

  it("lets the author delete their entry with JavaScript (200 JSON, gone)", async () => {
    const visitor = await signUp(uniqueName("Ada"));
    const id = await signAs(visitor.cookie);
    const response = await scriptAs("delete", { id: String(id) }, visitor.cookie);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ ok: true, result: { deleted: id } });
    expect(await rowOf(id)).toBeNull();
  });

  it("answers 403 to another account and to a signed-out visitor, and deletes nothing", async () => {
    const author = await signUp(uniqueName("author"));
    const other = await signUp(uniqueName("other"));
    const id = await signAs(author.cookie);
    const form = await formAs("/guestbook", { _action: "delete", id: String(id) }, other.cookie);
    expect(form.status).toBe(403);
    expect(await form.text()).toContain("You can delete only your own entries.");
    expect((await scriptAs("delete", { id: String(id) }, other.cookie)).status).toBe(403);
    expect((await formAs("/guestbook", { _action: "delete", id: String(id) })).status).toBe(403);
    expect((await scriptAs("delete", { id: String(id) })).status).toBe(403);
    // An anonymous entry has no author: no one deletes it.
    const anonymous = await signAs("");
    expect(
      (await formAs("/guestbook", { _action: "delete", id: String(anonymous) }, other.cookie)).status,
    ).toBe(403);
    expect(await rowOf(id)).toMatchObject({ author_id: author.accountId });
    expect(await rowOf(anonymous)).not.toBeNull();
  });

  it("shows the signed-in name and a delete button on the author's own entries only", async () => {
    const name = uniqueName("Shown");
    const visitor = await signUp(name);
    const id = await signAs(visitor.cookie);
    const mine = await (await getAs("/guestbook", visitor.cookie)).text();
    expect(mine).toContain(`Signed in as <!-- -->${name}`);
    expect(mine).toContain(`name="id" value="${id}"`);
    const theirs = await (await getAs("/guestbook")).text();
    expect(theirs).not.toContain("Signed in as");
    expect(theirs).not.toContain(`name="id" value="${id}"`);
  });

  it("marks a new entry as the author's in the action's own answer, and unmarks a deleted one", async () => {
    const visitor = await signUp(uniqueName("Scripted"));
    const ownIn = async (response: Response) => {
      const body = (await response.json()) as {
        page: { visitor: { settled: { value: { own: number[] } } } };
      };
      return body.page.visitor.settled.value.own;
    };
    const message = uniqueName("scripted entry");
    const signed = await scriptAs(
      "sign",
      { name: "Scripted", message, _key: crypto.randomUUID() },
      visitor.cookie,
    );
    expect(signed.status).toBe(200);
    const row = await env.DB.prepare("SELECT id FROM guestbook WHERE message = ?")
      .bind(message)
      .first<{ id: number }>();
    expect(await ownIn(signed)).toContain(row!.id);
    const deleted = await scriptAs("delete", { id: String(row!.id) }, visitor.cookie);
    expect(await ownIn(deleted)).not.toContain(row!.id);
  });

  it("marks the author's entry on the page it is listed on, page 3 once 40 newer ones came", async () => {
    const visitor = await signUp(uniqueName("Paged"));
    const id = await signAs(visitor.cookie);
    const newer = Array.from({ length: 40 }, (_, i) =>
      env.DB.prepare("INSERT INTO guestbook (name, message, idempotency_key) VALUES (?, ?, ?)").bind(
        "Newer",
        `after ${id}`,
        uniqueName(`newer-${i}`),
      ),
    );
    await env.DB.batch(newer);
    const first = await (await getAs("/guestbook", visitor.cookie)).text();
    expect(first).not.toContain(`name="id" value="${id}"`);
    const third = await (await getAs("/guestbook?page=3", visitor.cookie)).text();
    expect(third).toContain(`name="id" value="${id}"`);
    // What the visitor's part carries: their entries around this page, not every one they wrote.
    const visitorValue = (html: string) =>
      JSON.parse(html.match(/data-deferred="\$visitor"[^>]*>([^<]*)</)![1]!) as { value: { own: number[] } };
    expect(visitorValue(first).value.own).toEqual([]);
    expect(visitorValue(third).value.own).toEqual([id]);
  });

  it("sends a signed-in visitor asking for a page far past the end to the last page", async () => {
    const visitor = await signUp(uniqueName("Far"));
    const response = await getAs("/guestbook?page=999999999", visitor.cookie);
    expect(response.status).toBe(303);
    expect(response.headers.get("Location")).toMatch(/\/guestbook(\?page=\d+)?$/);
  });
});
