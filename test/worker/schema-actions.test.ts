// Schema-checked actions (action(schema, run)) on the tests' own app: /account's schema is async
// and takes a password, /schema-throws's schema throws.
import { describe, expect, it } from "vitest";
import { visitor } from "verge/test";
import { fixtureClientManifest, fixtureRequest } from "./apps";
import { digestIn } from "./html";

const PASSWORD = "hunter2-secret-pw";

/** A visitor of the tests' own app (its build, for what the page's script sends). */
const fixtureVisitor = () => visitor({ fetch: fixtureRequest, build: fixtureClientManifest.build });

/** The error text the page shows for a field: the element the input's aria-describedby names. */
function fieldError(html: string, name: string): string | undefined {
  const input = inputTag(html, name);
  const id = input && /aria-describedby="([^"]+)"/.exec(input)?.[1];
  return id && new RegExp(`id="${id}"[^>]*>([^<]*)<`).exec(html)?.[1];
}

/** The `<input>` tag of the field named `name`. */
const inputTag = (html: string, name: string) =>
  html.match(/<input [^>]*>/g)?.find((tag) => tag.includes(` name="${name}"`));

describe("a schema-checked action without JavaScript", () => {
  it("answers 422 with each issue next to its field and the typed values kept", async () => {
    const response = await fixtureVisitor().form("/account", {
      _action: "register",
      nickname: "taken",
      password: "short",
    });
    expect(response.status).toBe(422);
    const html = await response.text();
    expect(fieldError(html, "nickname")).toBe("That nickname is taken.");
    expect(fieldError(html, "password")).toBe("Password must be at least 8 characters.");
    expect(inputTag(html, "nickname")).toContain('value="taken"');
  });

  it("never sends the password back, in the page or its embedded data", async () => {
    const response = await fixtureVisitor().form("/account", {
      _action: "register",
      nickname: "",
      password: PASSWORD,
    });
    expect(response.status).toBe(422);
    const html = await response.text();
    expect(fieldError(html, "nickname")).toBe("Nickname is required.");
    expect(html).not.toContain(PASSWORD);
    expect(inputTag(html, "password")).not.toContain("value=");
  });

  it("runs the action on the parsed input once the async schema passes: 303 to the page", async () => {
    const response = await fixtureVisitor().form("/account", {
      _action: "register",
      nickname: "ann",
      password: PASSWORD,
    });
    expect(response.status).toBe(303);
    expect(response.headers.get("Location")).toBe("/account");
  });

  it("answers the fallback page with a digest when the schema throws", async () => {
    const response = await fixtureVisitor().form("/schema-throws", { _action: "send", anything: "x" });
    expect(response.status).toBe(500);
    const html = await response.text();
    expect(html).toContain("Application error: a server-side exception has occurred");
    expect(digestIn(html)).toMatch(/^[0-9a-z]{8,16}$/);
    expect(html).not.toContain("Schema failed on purpose");
  });
});

describe("a schema-checked action with JavaScript", () => {
  it("answers 422 JSON with the field errors, and no password in it", async () => {
    const response = await fixtureVisitor().action("/account", "register", {
      nickname: "taken",
      password: PASSWORD,
    });
    expect(response.status).toBe(422);
    const text = await response.text();
    expect(text).not.toContain(PASSWORD);
    expect(JSON.parse(text)).toMatchObject({
      ok: false,
      fieldErrors: { nickname: "That nickname is taken." },
      values: { nickname: "taken" },
    });
  });

  it("answers the action's result on the parsed input, with the page", async () => {
    const response = await fixtureVisitor().action("/account", "register", {
      nickname: "bo",
      password: PASSWORD,
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ ok: true, result: { registered: "bo" } });
  });

  it("answers 500 JSON with a digest and nothing of the error when the schema throws", async () => {
    const response = await fixtureVisitor().action("/schema-throws", "send", { anything: "x" });
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({
      ok: false,
      error: { digest: expect.stringMatching(/^[0-9a-z]{8,16}$/) },
    });
    expect(text).not.toContain("Schema failed on purpose");
  });
});
