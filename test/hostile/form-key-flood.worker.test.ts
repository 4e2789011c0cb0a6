// A flood of form keys: the isolate's memory of them has a cap, a page whose render saw keys
// forgotten is not stored, and a store's check of a page costs the same at any rate.
import { describe, expect, it } from "vitest";
import {
  holdsKeyIssuedSince,
  keyMark,
  newIdempotencyKey,
  REMEMBERED_KEYS,
  rememberedKeys,
} from "../../src/shared/form-keys";

/** Issues `count` keys, as that many renders of a form would. */
const flood = (count: number) => {
  for (let i = 0; i < count; i++) newIdempotencyKey();
};

/** `text` as a string that counts every method the check calls on it (charCodeAt, includes...). */
function counted(text: string): { text: string; calls: () => number } {
  let calls = 0;
  const wrapper = new String(text) as unknown as Record<string, unknown>;
  for (const name of ["charCodeAt", "includes", "indexOf", "slice", "startsWith", "substring"]) {
    const method = (String.prototype as unknown as Record<string, (...args: unknown[]) => unknown>)[name]!;
    wrapper[name] = (...args: unknown[]) => (calls++, method.apply(text, args));
  }
  return { text: wrapper as unknown as string, calls: () => calls };
}

describe("a flood of form keys", () => {
  it("is remembered up to 4096 keys however many are issued", () => {
    flood(50_000);
    expect(REMEMBERED_KEYS).toBe(4096);
    expect(rememberedKeys()).toBeLessThanOrEqual(REMEMBERED_KEYS);
  });

  it("keeps a page out of the cache whose own key the flood pushed out of memory", () => {
    const mark = keyMark();
    const own = newIdempotencyKey(() => `own-${Math.random().toString(36).slice(2)}`);
    flood(REMEMBERED_KEYS + 1);
    expect(holdsKeyIssuedSince(`<input name="_key" value="${own}">`, mark)).toBe(true);
  });

  it("keeps out a page without a key whose render saw keys forgotten: it may hold one", () => {
    const mark = keyMark();
    flood(REMEMBERED_KEYS + 1);
    expect(holdsKeyIssuedSince("<p>no key here</p>", mark)).toBe(true);
  });

  it("stores a page again once its render began after the flood", () => {
    flood(REMEMBERED_KEYS * 3);
    const mark = keyMark();
    newIdempotencyKey();
    expect(holdsKeyIssuedSince("<p>no key here</p>", mark)).toBe(false);
  });

  it("still finds a key of its own shape issued during the render, among thousands", () => {
    const mark = keyMark();
    flood(1000);
    const own = newIdempotencyKey(() => `own-${Math.random().toString(36).slice(2)}`);
    flood(1000);
    expect(holdsKeyIssuedSince(`<main><input value="${own}"></main>`, mark)).toBe(true);
    expect(holdsKeyIssuedSince(`<main><input value="${own.slice(0, -1)}"></main>`, mark)).toBe(false);
  });

  it("checks a page with the same work whether 10 or 4000 keys were issued during its render", () => {
    const page = "~".repeat(64 * 1024);
    const work = (issued: number) => {
      const mark = keyMark();
      flood(issued);
      const { text, calls } = counted(page);
      expect(holdsKeyIssuedSince(text, mark)).toBe(false);
      return calls();
    };
    const quiet = work(10);
    expect(work(4000)).toBe(quiet);
  });
});
