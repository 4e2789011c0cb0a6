// invalid(): an action's refusal is a 4xx, with its headers and message kept for the answer.
import { describe, expect, it } from "vitest";
import { invalid, isInvalid } from "../../src/shared/invalid";

describe("invalid()", () => {
  it("is a 422 with no headers and no message unless told otherwise", () => {
    const refusal = invalid({ name: "Name is required." });
    expect(isInvalid(refusal)).toBe(true);
    expect(refusal).toMatchObject({ fieldErrors: { name: "Name is required." }, status: 422, headers: {} });
    expect("message" in refusal).toBe(false);
  });

  it("carries another 4xx, its headers and a message about the whole form", () => {
    const refusal = invalid({}, { status: 429, headers: { "Retry-After": "60" }, message: "Wait." });
    expect(refusal).toMatchObject({ status: 429, headers: { "Retry-After": "60" }, message: "Wait." });
  });

  it.each([200, 303, 500, 99, 429.5])("refuses status %s: a refusal is a 4xx", (status) => {
    expect(() => invalid({}, { status })).toThrow(RangeError);
  });
});
