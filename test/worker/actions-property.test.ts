import { env } from "cloudflare:workers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { post } from "./action-helpers";

const INVALID_NAME = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\ud800-\udfff]/u;
const INVALID_MESSAGE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\ud800-\udfff]/u;
const length = (text: string) => [...text].length;

/** Field values: plain text, whitespace, control characters, lone surrogates, long strings. */
const value = fc.oneof(
  fc.string({ maxLength: 80 }),
  fc.string({ unit: "binary", maxLength: 80 }),
  fc.string({ unit: fc.constantFrom(" ", "\n", "\r", "\t", "\u0000", "\u0085", "\u202e", "a", "é", "😀") }),
  fc.string({ minLength: 55, maxLength: 600 }),
  fc.constantFrom("", "   ", "'; DROP TABLE guestbook;--", "<script>alert(1)</script>"),
);

const fields = fc.record(
  {
    _action: fc.oneof(fc.constant("sign"), fc.string({ maxLength: 8 })),
    name: value,
    message: value,
    _key: fc.oneof(fc.uuid(), fc.string({ maxLength: 120 })),
  },
  { requiredKeys: [] },
);

/** A body and its headers: well-formed forms and JSON, and arbitrary bytes under any content type. */
const request = fc.oneof(
  fields.map((f) => ({ type: "application/x-www-form-urlencoded", body: new URLSearchParams(f).toString() })),
  fields.map((f) => {
    const form = new FormData();
    for (const [k, v] of Object.entries(f)) form.append(k, v);
    return { type: null, body: form as BodyInit };
  }),
  fc.oneof(fields, fc.jsonValue()).map((f) => ({ type: "application/json", body: JSON.stringify(f) ?? "" })),
  fc.record({
    type: fc.oneof(
      fc.constantFrom(
        "application/json",
        "multipart/form-data; boundary=x",
        "application/x-www-form-urlencoded",
      ),
      fc.constantFrom(
        "text/plain",
        "",
        "application/xml",
        "multipart/form-data",
        "application/json; charset=latin1",
      ),
      fc.string({ maxLength: 40 }),
    ),
    body: fc.uint8Array({ maxLength: 300 }).map((bytes) => bytes as BodyInit),
  }),
);

const headers = fc.record(
  {
    "X-Action": fc.oneof(fc.constant("sign"), fc.string({ maxLength: 10 })),
    Origin: fc.constantFrom("http://localhost", "null", "https://evil.example"),
    "Sec-Fetch-Site": fc.constantFrom("same-origin", "cross-site", "none"),
  },
  { requiredKeys: [] },
);

describe("the sign action under arbitrary input", () => {
  it("never answers 500 and never stores an invalid row", async () => {
    await fc.assert(
      fc.asyncProperty(request, headers, async (req, extra) => {
        const all: Record<string, string> = { ...extra };
        if (req.type !== null) all["Content-Type"] = req.type;
        const response = await post("/guestbook", { headers: all, body: req.body });
        await response.arrayBuffer();
        expect(response.status).toBeLessThan(500);
        expect([200, 303, 400, 403, 404, 413, 415, 422]).toContain(response.status);
      }),
      { numRuns: 250 },
    );
    const { results } = await env.DB.prepare("SELECT name, message FROM guestbook").all<{
      name: string;
      message: string;
    }>();
    expect(results.length).toBeGreaterThan(0); // some random input was valid and got stored
    for (const row of results) {
      expect(row.name).toBe(row.name.trim());
      expect(row.message).toBe(row.message.trim());
      expect(length(row.name)).toBeGreaterThanOrEqual(1);
      expect(length(row.name)).toBeLessThanOrEqual(60);
      expect(length(row.message)).toBeGreaterThanOrEqual(1);
      expect(length(row.message)).toBeLessThanOrEqual(500);
      expect(row.name).not.toMatch(INVALID_NAME);
      expect(row.message).not.toMatch(INVALID_MESSAGE);
    }
  }, 60_000); // hundreds of requests: well past the default 5 s on a loaded machine
});
