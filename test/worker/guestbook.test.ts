import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ORIGIN, post, postForm, postScript, rowsNamed, uniqueName } from "./action-helpers";
import type { ActionFailure, ActionSuccess } from "../../src/shared/protocol";

interface Entry {
  name: string;
  message: string;
}

const html = async (path: string) => (await exports.default.fetch(`${ORIGIN}${path}`)).text();

describe("signing the guestbook without JavaScript", () => {
  it("answers 303 to the page, which then shows the entry", async () => {
    const name = uniqueName("plain");
    const response = await postForm({ _action: "sign", name, message: "Hello from a form" });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/guestbook");
    const page = await html("/guestbook");
    expect(page).toContain(name);
    expect(page).toContain("Hello from a form");
  });

  it("trims the fields before storing them", async () => {
    const name = uniqueName("trim");
    await postForm({ _action: "sign", name: `   ${name}\t`, message: "\n  spaced out  \n" });
    expect(await rowsNamed(name)).toMatchObject([{ name, message: "spaced out" }]);
  });

  it("re-renders the page with 422, the errors next to their fields and the typed values kept", async () => {
    const response = await postForm({ _action: "sign", name: "  ", message: "kept <b>text</b>" });
    expect(response.status).toBe(422);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const page = await response.text();
    expect(page).toContain("Name is required.");
    const input = page.match(/<input[^>]*id="form-sign-name"[^>]*>/)?.[0];
    expect(input).toContain('aria-invalid="true"');
    expect(input).toContain('aria-describedby="form-sign-name-error"');
    expect(input).toContain('value="  "');
    expect(page).toContain('id="form-sign-name-error"');
    expect(page).toContain("kept &lt;b&gt;text&lt;/b&gt;</textarea>");
  });

  it("rejects names and messages that are too long or hold control characters", async () => {
    const name = uniqueName("long");
    const tooLong = await postForm({ _action: "sign", name, message: "x".repeat(501) });
    expect(tooLong.status).toBe(422);
    expect(await tooLong.text()).toContain("Message must be at most 500 characters.");
    const control = await postScript("sign", { name: `${name}\u0007`, message: "bell" });
    expect(control.status).toBe(422);
    expect(await control.json()).toMatchObject({
      fieldErrors: { name: "Name must not contain control characters." },
    });
    const sixty = await postScript("sign", { name: "é".repeat(61), message: "ok" });
    expect(((await sixty.json()) as ActionFailure).fieldErrors.name).toBe(
      "Name must be at most 60 characters.",
    );
    expect(await rowsNamed(name)).toEqual([]);
  });

  it("shows the server fallback page (500, digest) when the action throws", async () => {
    await env.DB.exec("ALTER TABLE guestbook RENAME TO guestbook_away");
    try {
      const response = await postForm({ _action: "sign", name: uniqueName("boom"), message: "fails" });
      expect(response.status).toBe(500);
      const page = await response.text();
      expect(page).toContain("Application error: a server-side exception has occurred");
      expect(page).toMatch(/Digest: <code data-testid="digest">[0-9a-z]{8,16}<\/code>/);
      expect(page).not.toContain("guestbook_away");
      expect(page).not.toContain("no such table");
    } finally {
      await env.DB.exec("ALTER TABLE guestbook_away RENAME TO guestbook");
    }
  });
});

describe("signing the guestbook with JavaScript", () => {
  it("answers 200 JSON with the result and the revalidated page, in one round trip", async () => {
    const name = uniqueName("script");
    const response = await postScript("sign", { name, message: "via fetch", _key: crypto.randomUUID() });
    expect(response.status).toBe(200);
    const body = (await response.json()) as ActionSuccess;
    expect(body).toMatchObject({
      ok: true,
      result: { created: true },
      page: { route: "/guestbook", status: 200 },
    });
    const entries = (body.page.data as { entries: Entry[] }).entries;
    expect(entries[0]).toMatchObject({ name, message: "via fetch" });
  });

  it("answers 422 JSON with field errors and values", async () => {
    const response = await postScript("sign", { name: "ok", message: "" });
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({
      ok: false,
      fieldErrors: { message: "Message is required." },
      values: { name: "ok", message: "" },
    });
  });

  it("accepts JSON and multipart bodies as well", async () => {
    const jsonName = uniqueName("json");
    const json = await post("/guestbook", {
      headers: { "Content-Type": "application/json", "X-Action": "sign" },
      body: JSON.stringify({ name: jsonName, message: "as json" }),
    });
    expect(json.status).toBe(200);
    const form = new FormData();
    const multipartName = uniqueName("multi");
    form.set("_action", "sign");
    form.set("name", multipartName);
    form.set("message", "as multipart");
    expect((await post("/guestbook", { body: form })).status).toBe(303);
    expect(await rowsNamed(jsonName)).toHaveLength(1);
    expect(await rowsNamed(multipartName)).toHaveLength(1);
  });

  it("answers 500 JSON with only a digest when the action throws, and stores nothing", async () => {
    await env.DB.exec("ALTER TABLE guestbook RENAME TO guestbook_away");
    const name = uniqueName("boom");
    try {
      const response = await postScript("sign", { name, message: "fails" });
      expect(response.status).toBe(500);
      const body = await response.json();
      expect(body).toEqual({ ok: false, error: { digest: expect.stringMatching(/^[0-9a-z]{8,16}$/) } });
    } finally {
      await env.DB.exec("ALTER TABLE guestbook_away RENAME TO guestbook");
    }
    expect(await rowsNamed(name)).toEqual([]);
  });
});

describe("guestbook storage", () => {
  it("stores SQL-looking and markup-looking input verbatim and shows it as text", async () => {
    const name = `'); DROP TABLE guestbook;-- ${uniqueName()}`;
    const message = `<script>alert("x")</script><img src=x onerror=alert(1)> & "quotes" ' OR 1=1 --`;
    expect((await postForm({ _action: "sign", name, message })).status).toBe(303);
    expect(await rowsNamed(name)).toMatchObject([{ name, message }]);
    const page = await html("/guestbook");
    expect(page).toContain(
      "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;",
    );
    expect(page).not.toContain("<img src=x onerror");
    expect(page).toContain("&#x27;); DROP TABLE guestbook;--");
  });

  it("stores one entry for a form submitted twice with the same idempotency key", async () => {
    const name = uniqueName("twice");
    const fields = { _action: "sign", name, message: "once", _key: crypto.randomUUID() };
    const [first, second] = await Promise.all([postForm(fields), postForm(fields)]);
    expect([first.status, second.status]).toEqual([303, 303]);
    const third = await postScript("sign", fields);
    expect(((await third.json()) as ActionSuccess).result).toEqual({ created: false });
    expect(await rowsNamed(name)).toHaveLength(1);
  });

  it("stores two entries for two different keys", async () => {
    const name = uniqueName("distinct");
    await postForm({ _action: "sign", name, message: "one", _key: crypto.randomUUID() });
    await postForm({ _action: "sign", name, message: "two", _key: crypto.randomUUID() });
    expect(await rowsNamed(name)).toHaveLength(2);
  });

  it("puts a fresh idempotency key in every rendering of the form", async () => {
    const key = (page: string) => page.match(/name="_key" value="([^"]+)"/)?.[1];
    const [a, b] = [key(await html("/guestbook")), key(await html("/guestbook"))];
    expect(a).toMatch(/^[0-9a-f-]{36}$/);
    expect(b).toMatch(/^[0-9a-f-]{36}$/);
    expect(a).not.toBe(b);
  });
});
