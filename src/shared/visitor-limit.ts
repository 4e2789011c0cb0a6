// Who a rate limit counts, in layers: a visitor (an IPv4 address, an IPv6 /64), their wider network
// (an IPv6 /48) and, for a shared quota, everyone at this location.

/** A dotted IPv4 address as Cloudflare writes it: four decimal octets, no leading zeros. */
const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\.(?!$)|$)){4}$/;

/** The groups of an IPv6 address, `::` expanded; null if it is not one. */
function ipv6Groups(address: string): string[] | null {
  const halves = address.split("::");
  if (halves.length > 2 || !address.includes(":")) return null;
  const split = (half: string) => (half === "" ? [] : half.split(":"));
  const head = split(halves[0]!);
  const tail = halves.length === 2 ? split(halves[1]!) : [];
  const groups = [...head, ...tail];
  // Only the last group may be an IPv4 address (::ffff:192.0.2.1): two groups' worth.
  const dotted = !address.endsWith("::") && IPV4.test(groups.at(-1) ?? "");
  const hex = dotted ? groups.slice(0, -1) : groups;
  if (!hex.every((group) => /^[0-9a-f]{1,4}$/i.test(group))) return null;
  const missing = 8 - groups.length - (dotted ? 1 : 0);
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  return [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...tail];
}

/** The first `count` groups of IPv6 groups as a prefix (leading zeros dropped). */
const ipv6Prefix = (groups: string[], count: number) =>
  `${groups
    .slice(0, count)
    .map((group) => group.replace(/^0+(?=.)/, ""))
    .join(":")}::/${count * 16}`;

const bareAddress = (address: string) =>
  address
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$|%.*$/g, "");

/** An IPv4-mapped IPv6 address's IPv4 address, or null. */
const mappedIPv4 = (bare: string) => {
  const ipv4 = /^::ffff:([\d.]+)$/.exec(bare)?.[1];
  return ipv4 && IPV4.test(ipv4) ? ipv4 : null;
};

/**
 * The key of every address that is not one (a CF-Connecting-IP Cloudflare did not write): one
 * bucket for all of them, so a made-up value is never a fresh allowance. No address has a
 * parenthesis, so it is no visitor's key either.
 */
export const MALFORMED_KEY = "(malformed address)";
/** The key of a request with no address at all (not through Cloudflare, or a local test). */
export const NO_ADDRESS_KEY = "(no address)";

/** The key of `address` with IPv6 counted by its first `groups` groups. */
function keyOf(address: string, groups: number): string {
  const bare = bareAddress(address);
  if (IPV4.test(bare)) return bare;
  const mapped = mappedIPv4(bare);
  if (mapped) return mapped;
  const ipv6 = ipv6Groups(bare);
  return ipv6 ? ipv6Prefix(ipv6, groups) : MALFORMED_KEY;
}

/**
 * The key a limiter counts `address` under. An IPv6 address counts by its /64 network: a
 * network is what one subscriber or server is given, and every address in it is theirs, so
 * counting addresses would give each of them 2^64 buckets. IPv4-mapped addresses count as the
 * IPv4 address they carry. Anything that is not an address counts as MALFORMED_KEY.
 */
export const limitKey = (address: string): string => keyOf(address, 4);

/**
 * The key of the network around `address`: an IPv6 /48, what a site or a tunnel broker's free
 * account is given (65,536 /64s). An IPv4 address is its own network: a /24 would put strangers
 * behind one carrier's NAT together.
 */
export const networkKey = (address: string): string => keyOf(address, 3);

/** The header Cloudflare sets to the visitor's address; clients cannot set it at the edge. */
export const CONNECTING_IP_HEADER = "CF-Connecting-IP";
/**
 * With the zone's Pseudo IPv4 set to "Overwrite Headers", CF-Connecting-IP holds a hashed IPv4
 * from 240.0.0.0/4 (one per IPv6 address, so one per bucket) and the real address moves here.
 * Read only then: otherwise nothing says Cloudflare wrote it, and a client's own value would be
 * a fresh bucket per request.
 */
export const CONNECTING_IPV6_HEADER = "CF-Connecting-IPv6";

/** Whether `address` is a Pseudo IPv4 address: Class E, 240.0.0.0/4, never a real visitor's. */
const isPseudoIPv4 = (address: string) => IPV4.test(address) && Number(address.split(".")[0]) >= 240;

/**
 * The visitor's address as Cloudflare saw it: CF-Connecting-IP, or the real IPv6 one when it is a
 * Pseudo IPv4 and CF-Connecting-IPv6 is an IPv6 address. Null without CF-Connecting-IP; a value
 * that is not an address is returned as it is, for the keys to count as MALFORMED_KEY.
 */
export function visitorAddress(request: Request): string | null {
  const address = request.headers.get(CONNECTING_IP_HEADER);
  if (address === null) return null;
  const ipv6 = request.headers.get(CONNECTING_IPV6_HEADER);
  if (ipv6 !== null && isPseudoIPv4(address.trim()) && ipv6Groups(bareAddress(ipv6))) return ipv6;
  return address;
}

/** Whether `address` is an IPv4 or IPv6 address (a key other than MALFORMED_KEY). */
export const isAddress = (address: string): boolean => limitKey(address) !== MALFORMED_KEY;

/** The limiter key of the visitor who sent `request` (limitKey of its address). */
export function visitorKey(request: Request): string {
  const address = visitorAddress(request);
  return address === null ? NO_ADDRESS_KEY : limitKey(address);
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
    [limits.visitor, address === null ? NO_ADDRESS_KEY : limitKey(address)],
    [limits.network, address === null ? NO_ADDRESS_KEY : networkKey(address)],
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
