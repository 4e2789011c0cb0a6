// The signed-in guestbook: an entry carries its author, and only its author deletes it (action
// `delete`, field `id`), with and without JavaScript; anyone else gets 403 and nothing changes.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { visitor, type Visitor } from "verge/test";
import { uniqueName } from "./action-helpers";

const rowOf = (id: number) =>
  env.DB.prepare("SELECT id, author_id FROM guestbook WHERE id = ?")
    .bind(id)
    .first<{ author_id: string | null }>();

/** Signs the guestbook as `who`; the new entry's id. */
async function signAs(who: Visitor, name = uniqueName("author")) {
  const response = await who.form("/guestbook", { _action: "sign", name, message: "mine" });
  expect(response.status).toBe(303);
  const row = await env.DB.prepare("SELECT id FROM guestbook WHERE name = ?")
    .bind(name)
    .first<{ id: number }>();
  return row!.id;
}

/** A visitor signed up as a new account named `name`, and the account. */
async function signedUp(name: string) {
  const who = visitor();
  return { who, account: await who.signUp(name) };
}

describe("the guestbook, signed in", () => {
  it("stores the author of an entry signed while signed in, and none for an anonymous one", async () => {
    const { who, account } = await signedUp(uniqueName("Grace"));
    expect(await rowOf(await signAs(who))).toMatchObject({ author_id: account.accountId });
    expect(await rowOf(await signAs(visitor()))).toMatchObject({ author_id: null });
  });

  it("lets the author delete their entry without JavaScript (303, gone)", async () => {
    const { who } = await signedUp(uniqueName("Ada"));
    const id = await signAs(who);
    const response = await who.form("/guestbook", { _action: "delete", id: String(id) });
    expect(response.status).toBe(303);
    expect(await rowOf(id)).toBeNull();
  });

  it("lets the author delete their entry with JavaScript (200 JSON, gone)", async () => {
    const { who } = await signedUp(uniqueName("Ada"));
    const id = await signAs(who);
    const response = await who.action("/guestbook", "delete", { id: String(id) });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ ok: true, result: { deleted: id } });
    expect(await rowOf(id)).toBeNull();
  });

  it("answers 403 to another account and to a signed-out visitor, and deletes nothing", async () => {
    const author = await signedUp(uniqueName("author"));
    const { who: other } = await signedUp(uniqueName("other"));
    const id = await signAs(author.who);
    const form = await other.form("/guestbook", { _action: "delete", id: String(id) });
    expect(form.status).toBe(403);
    expect(await form.text()).toContain("You can delete only your own entries.");
    expect((await other.action("/guestbook", "delete", { id: String(id) })).status).toBe(403);
    expect((await visitor().form("/guestbook", { _action: "delete", id: String(id) })).status).toBe(403);
    expect((await visitor().action("/guestbook", "delete", { id: String(id) })).status).toBe(403);
    // An anonymous entry has no author: no one deletes it.
    const anonymous = await signAs(visitor());
    expect((await other.form("/guestbook", { _action: "delete", id: String(anonymous) })).status).toBe(403);
    expect(await rowOf(id)).toMatchObject({ author_id: author.account.accountId });
    expect(await rowOf(anonymous)).not.toBeNull();
  });

  it("shows the signed-in name and a delete button on the author's own entries only", async () => {
    const name = uniqueName("Shown");
    const { who } = await signedUp(name);
    const id = await signAs(who);
    const mine = await (await who.get("/guestbook")).text();
    expect(mine).toContain(`Signed in as <!-- -->${name}`);
    expect(mine).toContain(`name="id" value="${id}"`);
    const theirs = await (await visitor().get("/guestbook")).text();
    expect(theirs).not.toContain("Signed in as");
    expect(theirs).not.toContain(`name="id" value="${id}"`);
  });

  it("marks a new entry as the author's in the action's own answer, and unmarks a deleted one", async () => {
    const { who } = await signedUp(uniqueName("Scripted"));
    const ownIn = async (response: Response) => {
      const body = (await response.json()) as {
        page: { visitor: { settled: { value: { own: number[] } } } };
      };
      return body.page.visitor.settled.value.own;
    };
    const message = uniqueName("scripted entry");
    const signed = await who.action("/guestbook", "sign", {
      name: "Scripted",
      message,
      _key: crypto.randomUUID(),
    });
    expect(signed.status).toBe(200);
    const row = await env.DB.prepare("SELECT id FROM guestbook WHERE message = ?")
      .bind(message)
      .first<{ id: number }>();
    expect(await ownIn(signed)).toContain(row!.id);
    const deleted = await who.action("/guestbook", "delete", { id: String(row!.id) });
    expect(await ownIn(deleted)).not.toContain(row!.id);
  });

  it("marks the author's entry on the page it is listed on, page 3 once 40 newer ones came", async () => {
    const { who } = await signedUp(uniqueName("Paged"));
    const id = await signAs(who);
    const newer = Array.from({ length: 40 }, (_, i) =>
      env.DB.prepare("INSERT INTO guestbook (name, message, idempotency_key) VALUES (?, ?, ?)").bind(
        "Newer",
        `after ${id}`,
        uniqueName(`newer-${i}`),
      ),
    );
    await env.DB.batch(newer);
    const first = await (await who.get("/guestbook")).text();
    expect(first).not.toContain(`name="id" value="${id}"`);
    const third = await (await who.get("/guestbook?page=3")).text();
    expect(third).toContain(`name="id" value="${id}"`);
    // What the visitor's part carries: their entries around this page, not every one they wrote.
    const visitorValue = (html: string) =>
      JSON.parse(html.match(/data-deferred="\$visitor"[^>]*>([^<]*)</)![1]!) as { value: { own: number[] } };
    expect(visitorValue(first).value.own).toEqual([]);
    expect(visitorValue(third).value.own).toEqual([id]);
  });

  it("sends a signed-in visitor asking for a page far past the end to the last page", async () => {
    const { who } = await signedUp(uniqueName("Far"));
    const response = await who.get("/guestbook?page=999999999");
    expect(response.status).toBe(303);
    expect(response.headers.get("Location")).toMatch(/\/guestbook(\?page=\d+)?$/);
  });
});
