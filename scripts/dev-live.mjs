// When a client build is live under `npm run dev`: wrangler dev embeds the client manifest in the
// worker and reads the assets folder again only when it reloads the worker, so a save is served
// whole once a document names the build's files. scripts/dev.mjs holds the browser's update until
// then: a page updated, or reloaded, before it would load the last build, or files not served yet.

/** An address no app route is expected to answer: its not-found document still names the build. */
const PROBE_PATH = "/__verge-dev-probe";

/** How long an update waits for the worker before it goes out anyway (a worker that fails to build). */
const WAIT_MS = 30_000;

/** Wrangler's output without its colours. */
const plain = (line) => line.replace(/\x1b\[[0-9;]*m/g, "");

/**
 * Follows wrangler dev's output (`onLine` each line): where it listens, and each finished reload.
 * `untilNamed(names)` resolves once a document of the worker names each of `names` (the build's
 * entry and stylesheet), true, or after WAIT_MS, false.
 */
export function liveBuilds() {
  let origin = null;
  let reloaded = new Set();
  const nextReload = () => new Promise((resolve) => reloaded.add(resolve));
  const named = async (names) => {
    try {
      const response = await fetch(new URL(PROBE_PATH, origin), { headers: { Accept: "text/html" } });
      const html = await response.text();
      return names.every((name) => html.includes(`"${name}"`));
    } catch {
      return false;
    }
  };
  return {
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
    async untilNamed(names) {
      if (!origin || names.length === 0) return true;
      const deadline = Date.now() + WAIT_MS;
      for (;;) {
        // Asked for before the probe: a reload that ends while it is under way is not missed.
        const reload = nextReload();
        if (await named(names)) return true;
        let timer;
        const timedOut = new Promise((resolve) => (timer = setTimeout(resolve, deadline - Date.now(), true)));
        const late = await Promise.race([reload.then(() => false), timedOut]);
        clearTimeout(timer);
        if (late) return false;
      }
    },
  };
}
