// For tests that fill a rate limiter: start them where its fixed window cannot roll over mid-test.

/**
 * How long a hook that calls awaitFreshWindow() may take: three times its longest wait (15 s), as
 * every limit here is at least three times what its work takes alone.
 */
export const FRESH_WINDOW_TIMEOUT_MS = 50_000;

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

/**
 * Runs `count` (which fills limiters under keys of its own each time) and keeps its outcome when
 * it ran within one of the limiter's windows. When a window ended during it, its counts say
 * nothing: it runs again at once (the new window has most of its time left), and a third time
 * from a window's start if that one straddled too. No waiting for a fresh window first: a test
 * that needs most of a window would otherwise sit idle for up to that long.
 */
export async function inOneWindow<T>(count: () => Promise<T>, periodS = 60): Promise<T> {
  const windowOf = () => Math.floor(Date.now() / (periodS * 1000));
  for (let attempt = 1; ; attempt++) {
    if (attempt === 3) await awaitFreshWindow(periodS, periodS * 1000 - 1);
    const started = windowOf();
    try {
      const outcome = await count();
      if (windowOf() === started) return outcome;
    } catch (error) {
      if (windowOf() === started) throw error;
    }
    if (attempt === 3) throw new Error(`inOneWindow: a run took longer than the window (${periodS} s)`);
  }
}
