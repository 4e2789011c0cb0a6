// href(): the address of one of the app's pages from its pattern, its params (text or numbers) and
// a query, as the product's links and redirects write them.
import { describe, expect, it } from "vitest";
import { href } from "../../src/shared/index";

describe("href", () => {
  it("writes a number param as text, each param encoded into the path", () => {
    expect(href("/sign-in/:step", { step: 2 })).toBe("/sign-in/2");
    expect(href("/account/passkeys/:step", { step: "a b/c" })).toBe("/account/passkeys/a%20b%2Fc");
  });

  it("adds a query, leaving out null and undefined, and none at all when nothing is left", () => {
    expect(href("/guestbook", {}, { page: 2 })).toBe("/guestbook?page=2");
    expect(href("/guestbook", {}, { page: null, q: undefined })).toBe("/guestbook");
    expect(href("/guestbook")).toBe("/guestbook");
    expect(href("/sign-in/:step", { step: "options" }, { next: "/account?tab=keys", again: true })).toBe(
      "/sign-in/options?next=%2Faccount%3Ftab%3Dkeys&again=true",
    );
  });
});
