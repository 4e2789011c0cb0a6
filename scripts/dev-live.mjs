// When a client build is live under `npm run dev`: wrangler dev embeds the client manifest in the
// worker and reads the assets folder again only when it reloads the worker, so a save is served
// whole once a document names the build's files. scripts/dev.mjs holds the browser's update until
// then: a page updated, or reloaded, before it would load the last build, or files not served yet.

/** An address no app route is expected to answer: its not-found document still names the build. */
const PROBE_PATH = "/__verge-dev-probe";

/** How long an update waits for the worker before it goes out anyway (a worker that fails to build). */
const WAIT_MS = 30_000;

/** How long one probe may take: wrangler may hold a request while it reloads. */
const PROBE_MS = 5_000;

/** Wrangler's output without its colours. */
const plain = (line) => line.replace(/\x1b\[[0-9;]*m/g, "");

/**
 * Follows the client builds (`built(names)`: the files every document of a build names, its
 * entry and stylesheet) and wrangler dev's output (`onLine`: where it listens, each reload).
 * `untilServed(build, signal)` resolves once the worker's documents are of that build or a later
 * one, true (a quick second save makes the first one's build never live), or after WAIT_MS or
 * when `signal` aborts, false.
 */
export function liveBuilds() {
  let origin = null;
  const builds = [];
  let reloaded = new Set();
  const nextReload = () => new Promise((resolve) => reloaded.add(resolve));
  /** The latest build whose files a worker's document names (-1: none, or no answer). */
  const servedBuild = async () => {
    try {
      const response = await fetch(new URL(PROBE_PATH, origin), {
        headers: { Accept: "text/html" },
        signal: AbortSignal.timeout(PROBE_MS),
      });
      const html = await response.text();
      return builds.findLastIndex((names) => names.every((name) => html.includes(`"${name}"`)));
    } catch {
      return -1;
    }
  };
  return {
    built(names) {
      return builds.push(names) - 1;
    },
    onLine(line) {
      const text = plain(line);
      const ready = /Ready on (http:\/\/\S+)/.exec(text);
      if (ready) origin = ready[1];
      if (ready || text.includes("Local server updated and ready")) {
        const waiting = reloaded;
        reloaded = new Set();
        for (const resolve of waiting) resolve();
      }
    },
    async untilServed(build, signal) {
      if (!origin || build < 0) return true;
      const deadline = Date.now() + WAIT_MS;
      for (;;) {
        if (signal?.aborted) return false;
        // Asked for before the probe: a reload that ends while it is under way is not missed.
        const reload = nextReload();
        if ((await servedBuild()) >= build) return true;
        let timer;
        let onAbort;
        const given = new Promise((resolve) => {
          timer = setTimeout(resolve, Math.max(0, deadline - Date.now()), true);
          onAbort = () => resolve(true);
          signal?.addEventListener("abort", onAbort, { once: true });
        });
        const late = await Promise.race([reload.then(() => false), given]);
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        if (late) return false;
      }
    },
  };
}
