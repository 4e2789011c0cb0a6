// What a rate limit counts as one visitor: an IPv4 address, or an IPv6 /64 however it is written.
import { describe, expect, it } from "vitest";
import { limitKey, MALFORMED_KEY, networkKey } from "../../src/shared/visitor-limit";

describe("the key every limiter counts a visitor under", () => {
  it("counts an IPv4 address by itself", () => {
    expect(limitKey("203.0.113.7")).toBe("203.0.113.7");
    expect(limitKey("203.0.113.8")).not.toBe(limitKey("203.0.113.7"));
  });

  it("counts every spelling of one IPv6 /64 as one key", () => {
    const spellings = [
      "2001:db8:0:1::1",
      "2001:DB8:0:1:0:0:0:2",
      "2001:0db8:0000:0001:ffff:ffff:ffff:ffff",
      "2001:db8::1:abcd:0:0:1",
      "[2001:db8:0:1::5]",
      "2001:db8:0:1::6%eth0",
    ];
    expect(new Set(spellings.map(limitKey))).toEqual(new Set(["2001:db8:0:1::/64"]));
  });

  it("expands `::` before taking the /64, wherever it stands", () => {
    expect(limitKey("::1")).toBe("0:0:0:0::/64");
    expect(limitKey("2001:db8::")).toBe("2001:db8:0:0::/64");
    expect(limitKey("2001:db8::2:0:0:0:1")).toBe("2001:db8:0:2::/64");
    expect(limitKey("2001:db8:0:2::")).not.toBe(limitKey("2001:db8:0:3::"));
  });

  it("counts an IPv4-mapped IPv6 address as its IPv4 address", () => {
    expect(limitKey("::ffff:203.0.113.7")).toBe("203.0.113.7");
  });

  it("counts anything that is not an address under one key of its own, for every layer", () => {
    const junk = [
      "unknown",
      "1:2:3::4::5",
      "256.1.1.1",
      "1.2.3.04",
      "1.2.3.4::",
      "::1.2.3",
      "g::1",
      "12345::",
    ];
    expect(new Set(junk.map(limitKey))).toEqual(new Set([MALFORMED_KEY]));
    expect(new Set(junk.map(networkKey))).toEqual(new Set([MALFORMED_KEY]));
  });
});
