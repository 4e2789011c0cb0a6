// For tests that fill a rate limiter: start them where its fixed window cannot roll over mid-test.

/** How long a hook that calls awaitFreshWindow() may take: the longest wait, and a little more. */
export const FRESH_WINDOW_TIMEOUT_MS = 20_000;

/**
 * Waits for the next window when less than `marginMs` of the current one is left. Miniflare's
 * limiter counts in fixed windows of its period (a multiple of it since the epoch, on the same
 * clock as the test): a reset between the requests that fill it and the one that should be
 * refused would let that one through.
 */
export async function awaitFreshWindow(periodS = 60, marginMs = 15_000): Promise<void> {
  const left = periodS * 1000 - (Date.now() % (periodS * 1000));
  if (left < marginMs) await new Promise((resolve) => setTimeout(resolve, left + 50));
}
