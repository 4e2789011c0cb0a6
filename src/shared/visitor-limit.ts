// Who a rate limit counts, for every limiter: an IPv4 address by itself, an IPv6 address by its /64.

/** The groups of an IPv6 address, `::` expanded; null if it is not one. */
function ipv6Groups(address: string): string[] | null {
  const halves = address.split("::");
  if (halves.length > 2) return null;
  const split = (half: string) => (half === "" ? [] : half.split(":"));
  const head = split(halves[0]!);
  const tail = halves.length === 2 ? split(halves[1]!) : [];
  // An IPv4 tail (::ffff:192.0.2.1) is two groups; only the first four groups are kept anyway.
  const width = (groups: string[]) => groups.reduce((n, group) => n + (group.includes(".") ? 2 : 1), 0);
  const missing = 8 - width(head) - width(tail);
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...tail];
  return groups.every((group) => /^[0-9a-f]{1,4}$/i.test(group) || group.includes(".")) ? groups : null;
}

/**
 * The key a limiter counts `address` under. An IPv6 address counts by its /64 network: a
 * network is what one subscriber or server is given, and every address in it is theirs, so
 * counting addresses would give each of them 2^64 buckets. IPv4-mapped addresses count as the
 * IPv4 address they carry. Anything else (not an address) counts as it is written.
 */
export function limitKey(address: string): string {
  const bare = address
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$|%.*$/g, "");
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(bare);
  if (mapped) return mapped[1]!;
  const groups = bare.includes(":") ? ipv6Groups(bare) : null;
  if (!groups) return bare;
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}

/** The header Cloudflare sets to the visitor's address; clients cannot set it at the edge. */
export const CONNECTING_IP_HEADER = "CF-Connecting-IP";

/** The limiter key of the visitor who sent `request` (limitKey of its address). */
export function visitorKey(request: Request): string {
  return limitKey(request.headers.get(CONNECTING_IP_HEADER) ?? "unknown");
}

/**
 * Whether the visitor who sent `request` is within `limiter`'s limit (counting this request).
 * A missing binding is a deploy without its `[[ratelimits]]` block: it throws, naming it, rather
 * than letting every request through unlimited.
 */
export async function withinVisitorLimit(
  limiter: RateLimit | undefined,
  name: string,
  request: Request,
): Promise<boolean> {
  if (!limiter) {
    throw new Error(
      `The rate-limit binding ${name} is missing: add its [[ratelimits]] block to wrangler.toml.`,
    );
  }
  const { success } = await limiter.limit({ key: visitorKey(request) });
  return success;
}
