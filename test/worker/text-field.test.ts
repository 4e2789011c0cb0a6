// The guestbook's text rule (src/app/text-field.ts) through a schema action, as the guestbook runs it.
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { textField } from "../../src/app/text-field";
import { action } from "../../src/shared/schema-action";
import type { ActionArgs, Fields } from "../../src/shared/route-module";
import { isInvalid } from "../../src/shared/invalid";

const schema = v.object({
  name: textField({ label: "Name", max: 5 }),
  message: textField({ label: "Message", max: 10, multiline: true }),
});
const echo = action(schema, ({ input }) => input);

/** The parsed values, or the field errors the action answers with. */
async function check(fields: Fields) {
  const outcome = await echo({ fields } as ActionArgs);
  return isInvalid(outcome) ? { ok: false, fieldErrors: outcome.fieldErrors } : { ok: true, values: outcome };
}

describe("a text field", () => {
  it("trims, normalises line breaks and returns typed values", async () => {
    expect(await check({ name: "  Ann ", message: "a\r\nb\rc\n" })).toEqual({
      ok: true,
      values: { name: "Ann", message: "a\nb\nc" },
    });
  });

  it("counts characters as people do: an emoji is one", async () => {
    expect((await check({ name: "😀😀😀😀😀", message: "x" })).ok).toBe(true);
    expect(await check({ name: "😀😀😀😀😀😀", message: "x" })).toEqual({
      ok: false,
      fieldErrors: { name: "Name must be at most 5 characters." },
    });
  });

  it("reports every invalid field at once, and a missing field as required", async () => {
    expect(await check({ name: "\t" })).toEqual({
      ok: false,
      fieldErrors: { name: "Name is required.", message: "Message is required." },
    });
  });

  it("refuses control characters, bidi overrides and lone surrogates; keeps line breaks only where multiline", async () => {
    for (const bad of ["a\u0000b", "a\u001bb", "a\u0085b", "a\u202eb", "a\ud800b", "a\nb"]) {
      expect(await check({ name: bad, message: "ok" })).toMatchObject({
        fieldErrors: { name: "Name must not contain control characters." },
      });
    }
    expect((await check({ name: "ok", message: "a\n\tb" })).ok).toBe(true);
    expect((await check({ name: "ok", message: "a\u0007b" })).ok).toBe(false);
  });

  it("ignores inherited properties: only the submitted fields count", async () => {
    expect((await check(JSON.parse('{"__proto__": {"name": "x"}}'))).ok).toBe(false);
  });
});
