// Error digests: short opaque ids that tie what a visitor saw to the log line and the Sentry event.

/** 8-16 characters of [0-9a-z], derived from the error and the request it happened in. */
export function errorDigest(error: unknown, ray: string): string {
  const text =
    error instanceof Error ? `${error.name}\n${error.message}\n${error.stack ?? ""}` : String(error);
  return cyrb53(`${ray}\n${text}`).toString(36).padStart(11, "0").slice(-11);
}

/** A fast 53-bit string hash: digests need to be well spread, not secret. */
function cyrb53(input: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < input.length; i++) {
    const ch = input.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}
