import { env } from "cloudflare:workers";
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import worker from "../../src/worker";
import { describe, expect, it } from "vitest";
import { ORIGIN, post, postForm, postScript, rowsNamed, uniqueName } from "./action-helpers";

const valid = () => ({ _action: "sign", name: uniqueName("guard"), message: "hello" });

describe("action guards: cross-site requests", () => {
  it("answers 403 to Origin: null and stores nothing", async () => {
    const fields = valid();
    const response = await post("/guestbook", {
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "null" },
      body: new URLSearchParams(fields).toString(),
    });
    expect(response.status).toBe(403);
    expect(await rowsNamed(fields.name)).toEqual([]);
  });

  it("answers 403 to another site's Origin, with JSON for script requests", async () => {
    const fields = valid();
    const response = await postScript("sign", fields, { Origin: "https://evil.example" });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ ok: false, error: { message: expect.any(String) } });
    expect(await rowsNamed(fields.name)).toEqual([]);
  });

  it("answers 403 to Sec-Fetch-Site: cross-site without an Origin", async () => {
    const fields = valid();
    const response = await post("/guestbook", {
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Sec-Fetch-Site": "cross-site" },
      body: new URLSearchParams(fields).toString(),
    });
    expect(response.status).toBe(403);
    expect(response.headers.get("content-type")).toContain("text/html");
    expect(await rowsNamed(fields.name)).toEqual([]);
  });

  it("refuses before reading the body: a cross-site post with a broken body is still 403", async () => {
    const response = await post("/guestbook", {
      headers: { "Content-Type": "application/json", Origin: "https://evil.example" },
      body: "{not json",
    });
    expect(response.status).toBe(403);
  });

  it("accepts requests with neither Origin nor Sec-Fetch-Site (non-browser clients)", async () => {
    const fields = valid();
    const response = await post("/guestbook", {
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
    });
    expect(response.status).toBe(303);
    expect(await rowsNamed(fields.name)).toHaveLength(1);
  });

  it("accepts an origin listed in ALLOWED_ORIGINS, even when the browser says cross-site", async () => {
    const fields = valid();
    const request = (origin: string) =>
      new Request(`${ORIGIN}/guestbook`, {
        method: "POST",
        redirect: "manual",
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
          Origin: origin,
          "Sec-Fetch-Site": "cross-site",
        },
        body: new URLSearchParams(fields).toString(),
      });
    const configured = { ...env, ALLOWED_ORIGINS: " https://a.example , https://b.example" };
    const call = async (origin: string) => {
      const ctx = createExecutionContext();
      const response = await worker.fetch(request(origin), configured, ctx);
      await waitOnExecutionContext(ctx);
      return response.status;
    };
    expect(await call("https://c.example")).toBe(403);
    expect(await call("https://b.example")).toBe(303);
    expect(await rowsNamed(fields.name)).toHaveLength(1);
  });

  it("accepts the request's own origin", async () => {
    const fields = valid();
    const response = await postForm(fields);
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/guestbook");
  });
});

describe("action guards: size, type, name, build", () => {
  it("answers 413 from Content-Length over 1 MiB", async () => {
    const response = await post("/guestbook", {
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        "Content-Length": String(2 * 1024 * 1024),
      },
      body: new ReadableStream({ start: (c) => c.close() }),
    });
    expect(response.status).toBe(413);
  });

  it("answers 413 to a streamed body over 1 MiB without reading all of it", async () => {
    let pulled = 0;
    const chunk = new TextEncoder().encode("name=" + "a".repeat(64 * 1024));
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += chunk.byteLength;
        controller.enqueue(chunk);
        if (pulled > 64 * 1024 * 1024) controller.close(); // a bound, in case the limit failed
      },
    });
    const response = await post("/guestbook", {
      headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Action": "sign", Origin: ORIGIN },
      body,
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ ok: false });
    expect(pulled).toBeLessThan(4 * 1024 * 1024);
  });

  it.each(["text/plain", "application/xml", "text/html"])("answers 415 to a %s body", async (type) => {
    const response = await post("/guestbook", {
      headers: { "Content-Type": type },
      body: "name=a&message=b",
    });
    expect(response.status).toBe(415);
  });

  it("answers 415 when the body has no content type", async () => {
    const response = await post("/guestbook", { body: null });
    expect(response.status).toBe(415);
  });

  it("answers 404 to an unknown action name from a form", async () => {
    const response = await postForm({ _action: "destroy", name: "x", message: "y" });
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toContain("text/html");
  });

  it("answers 404 JSON telling a script to reload for an unknown X-Action", async () => {
    const response = await postScript("nope", { name: "x", message: "y" });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ ok: false, reload: true });
  });

  it("answers 404 to a post on a page that does not exist, or has no actions", async () => {
    expect((await postForm({ _action: "sign", name: "x", message: "y" }, "/nowhere")).status).toBe(404);
    expect((await postForm({ _action: "sign", name: "x", message: "y" }, "/slow")).status).toBe(404);
  });

  it("answers 409 to a script from another build, and stores nothing", async () => {
    const fields = { name: uniqueName("stale"), message: "old client" };
    const response = await postScript("sign", fields, { "X-Build": "an-old-build" });
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({ ok: false, reload: true });
    expect(await rowsNamed(fields.name)).toEqual([]);
  });

  it("answers 400 to malformed JSON and multipart bodies", async () => {
    const json = await post("/guestbook", {
      headers: { "Content-Type": "application/json", "X-Action": "sign" },
      body: "{",
    });
    expect(json.status).toBe(400);
    const multipart = await post("/guestbook", {
      headers: { "Content-Type": "multipart/form-data; boundary=xyz", "X-Action": "sign" },
      body: "garbage",
    });
    expect(multipart.status).toBe(400);
  });
});
