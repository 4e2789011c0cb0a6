// Who a rate limit counts, in layers: a visitor (an IPv4 address, an IPv6 /64), their wider network
// (an IPv6 /48) and, for a shared quota, everyone at this location.

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

/** The first `count` groups of an IPv6 address as a prefix (leading zeros dropped), or null. */
function ipv6Prefix(bare: string, count: number): string | null {
  const groups = bare.includes(":") ? ipv6Groups(bare) : null;
  if (!groups) return null;
  return `${groups
    .slice(0, count)
    .map((group) => group.replace(/^0+(?=.)/, ""))
    .join(":")}::/${count * 16}`;
}

const bareAddress = (address: string) =>
  address
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$|%.*$/g, "");

/** An IPv4-mapped IPv6 address's IPv4 address, or null. */
const mappedIPv4 = (bare: string) => /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(bare)?.[1] ?? null;

/**
 * The key a limiter counts `address` under. An IPv6 address counts by its /64 network: a
 * network is what one subscriber or server is given, and every address in it is theirs, so
 * counting addresses would give each of them 2^64 buckets. IPv4-mapped addresses count as the
 * IPv4 address they carry. Anything else (not an address) counts as it is written.
 */
export function limitKey(address: string): string {
  const bare = bareAddress(address);
  return mappedIPv4(bare) ?? ipv6Prefix(bare, 4) ?? bare;
}

/**
 * The key of the network around `address`: an IPv6 /48, what a site or a tunnel broker's free
 * account is given (65,536 /64s). An IPv4 address is its own network: a /24 would put strangers
 * behind one carrier's NAT together.
 */
export function networkKey(address: string): string {
  const bare = bareAddress(address);
  return mappedIPv4(bare) ?? ipv6Prefix(bare, 3) ?? bare;
}

/** The header Cloudflare sets to the visitor's address; clients cannot set it at the edge. */
export const CONNECTING_IP_HEADER = "CF-Connecting-IP";
/**
 * With the zone's Pseudo IPv4 set to "Overwrite Headers", CF-Connecting-IP holds a hashed IPv4
 * (one per IPv6 address, so one per bucket) and the real address moves here.
 */
export const CONNECTING_IPV6_HEADER = "CF-Connecting-IPv6";

/** The visitor's address as Cloudflare saw it: the real IPv6 one when Pseudo IPv4 hid it. */
export function visitorAddress(request: Request): string {
  return (
    request.headers.get(CONNECTING_IPV6_HEADER) ?? request.headers.get(CONNECTING_IP_HEADER) ?? "unknown"
  );
}

/** The limiter key of the visitor who sent `request` (limitKey of its address). */
export function visitorKey(request: Request): string {
  return limitKey(visitorAddress(request));
}

/** A rate-limit binding and its name in wrangler.toml (for the error when it is missing). */
export type Limiter = readonly [binding: RateLimit | undefined, name: string];

/** Layers of one limit: the visitor's, their network's and, optionally, everyone's at this location. */
export interface VisitorLimits {
  visitor: Limiter;
  network: Limiter;
  everyone?: Limiter;
}

/**
 * Whether the visitor who sent `request` is within every layer of `limits` (counting this
 * request), checked from the narrowest: a refused request uses up no wider layer, so one visitor
 * over their limit does not spend their network's. A missing binding is a deploy without its
 * `[[ratelimits]]` block: it throws, naming it, rather than letting every request through.
 */
export async function withinVisitorLimit(request: Request, limits: VisitorLimits): Promise<boolean> {
  const address = visitorAddress(request);
  const layers: [Limiter, string][] = [
    [limits.visitor, limitKey(address)],
    [limits.network, networkKey(address)],
  ];
  if (limits.everyone) layers.push([limits.everyone, "everyone"]);
  for (const [[binding, name], key] of layers) {
    if (!binding) {
      throw new Error(
        `The rate-limit binding ${name} is missing: add its [[ratelimits]] block to wrangler.toml.`,
      );
    }
    if (!(await binding.limit({ key })).success) return false;
  }
  return true;
}
