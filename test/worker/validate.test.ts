import { describe, expect, it } from "vitest";
import { validate } from "../../src/shared/validate";

const rules = {
  name: { label: "Name", max: 5 },
  message: { label: "Message", max: 10, multiline: true },
};

describe("validate", () => {
  it("trims, normalises line breaks and returns typed values", () => {
    expect(validate({ name: "  Ann ", message: "a\r\nb\rc\n" }, rules)).toEqual({
      ok: true,
      values: { name: "Ann", message: "a\nb\nc" },
    });
  });

  it("counts characters as people do: an emoji is one", () => {
    expect(validate({ name: "😀😀😀😀😀", message: "x" }, rules).ok).toBe(true);
    expect(validate({ name: "😀😀😀😀😀😀", message: "x" }, rules)).toEqual({
      ok: false,
      fieldErrors: { name: "Name must be at most 5 characters." },
    });
  });

  it("reports every invalid field at once, and a missing field as required", () => {
    expect(validate({ name: "\t" }, rules)).toEqual({
      ok: false,
      fieldErrors: { name: "Name is required.", message: "Message is required." },
    });
  });

  it("refuses control characters, bidi overrides and lone surrogates; keeps line breaks only where multiline", () => {
    for (const bad of ["a\u0000b", "a\u001bb", "a\u0085b", "a\u202eb", "a\ud800b", "a\nb"]) {
      expect(validate({ name: bad, message: "ok" }, rules)).toMatchObject({
        fieldErrors: { name: "Name must not contain control characters." },
      });
    }
    expect(validate({ name: "ok", message: "a\n\tb" }, rules).ok).toBe(true);
    expect(validate({ name: "ok", message: "a\u0007b" }, rules).ok).toBe(false);
  });

  it("ignores inherited properties: only the submitted fields count", () => {
    expect(validate(JSON.parse('{"__proto__": {"name": "x"}}'), rules).ok).toBe(false);
  });
});
