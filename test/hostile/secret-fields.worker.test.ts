// Secret fields never come back: a password field (by its type, whatever its name) and a field its
// action calls secret, in the 422 page, its embedded data, the JSON answer, a message or a log line.
import { describe, expect, it } from "vitest";
import { serverLog, visitor } from "verge/test";
import { fixtureClientManifest, testApp } from "../worker/apps";

const PIN = "hunter2";
const CODE = "opensesame";
const NAME = "visitor-typed-name";

// Its log lines go to console.log, where verge/test's serverLog finds a request's by its ray.
const app = testApp({ reportError: () => {} });

/**
 * The page's form, filled in and posted as a browser would (every input, hidden ones included),
 * by its script or without JavaScript; the answer, its body and the log lines of the post.
 */
async function submit(typed: Record<string, string>, script: boolean) {
  const who = visitor({ worker: app, build: fixtureClientManifest.build });
  const form = new URLSearchParams();
  const page = await (await who.get("/secrets")).text();
  for (const tag of page.match(/<input [^>]*type="hidden"[^>]*>/g) ?? []) {
    form.append(/name="([^"]*)"/.exec(tag)![1]!, /value="([^"]*)"/.exec(tag)?.[1] ?? "");
  }
  for (const [name, value] of Object.entries(typed)) form.append(name, value);
  const response = await (script ? who.action("/secrets", "unlock", form) : who.form("/secrets", form));
  const body = await response.text();
  const lines = (await serverLog(response)).map((line) => JSON.stringify(line));
  return { response, body, lines };
}

describe("secret fields", () => {
  it("keeps a password field named pin, and a code the action calls secret, out of the 422 page", async () => {
    const { response, body } = await submit({ name: "", pin: PIN, code: CODE }, false);
    expect(response.status).toBe(422);
    expect(body).toContain("Name is required.");
    expect(body).not.toContain(PIN);
    expect(body).not.toContain(CODE);
  });

  it("says what is wrong with a secret field without quoting it", async () => {
    const { body } = await submit({ name: NAME, pin: PIN, code: CODE }, true);
    const answer = JSON.parse(body) as {
      fieldErrors: Record<string, string>;
      values: Record<string, string>;
    };
    expect(answer.fieldErrors.pin).toBeTruthy();
    expect(answer.fieldErrors.code).toBeTruthy();
    expect(body).not.toContain(PIN);
    expect(body).not.toContain(CODE);
    expect(answer.values).toEqual({ name: NAME });
  });

  it("keeps secrets out of the JSON answer and what it echoes, with JavaScript", async () => {
    const { response, body } = await submit({ name: "", pin: PIN, code: CODE }, true);
    expect(response.status).toBe(422);
    expect(body).not.toContain(PIN);
    expect(body).not.toContain(CODE);
  });

  it("quotes no part of a secret the schema trims and lowercases first, page or JSON", async () => {
    // Typed with spaces and capitals: the schema's message would quote "hunter-phrase".
    const typed = { name: NAME, pin: "123456", code: "ABCD", phrase: "  HuNtEr-PhRaSe ", tag: "abcd" };
    for (const script of [false, true]) {
      const { response, body } = await submit(typed, script);
      expect(response.status).toBe(422);
      expect(body.toLowerCase()).not.toContain("hunter");
      expect(body).toContain("This value is not valid.");
    }
  });

  it("keeps a secret field's message when it is the schema's own words, not the value's", async () => {
    const { body } = await submit(
      { name: NAME, pin: "123456", code: "ABCD", phrase: "abc", tag: "Wxyz9" },
      true,
    );
    const answer = JSON.parse(body) as { fieldErrors: Record<string, string> };
    expect(answer.fieldErrors).toEqual({ tag: "A tag is four small letters." });
    expect(body).not.toContain("Wxyz9");
  });

  it("writes no typed value, secret or not, into the log line", async () => {
    const { lines } = await submit({ name: NAME, pin: PIN, code: CODE }, false);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ kind: "action", status: 422 });
    for (const typed of [PIN, CODE, NAME]) expect(lines[0]).not.toContain(typed);
  });
});
