// The known traps, measured: what a benchmark through `wrangler dev` reports if it forgets them.
import { ENV } from "./server.mjs";
import { measure } from "./load.mjs";
import { WORKLOADS } from "./workloads.mjs";

/**
 * Runs one HTML workload through `wrangler dev`, correctly configured and then
 * mis-configured two ways: React's development build (NODE_ENV unset) and wrangler's default
 * log level (a line per request). Each is compared with the correctly configured one.
 */
export async function measureTraps({ config, appState, timing, start, stopAll, log, pages }) {
  const id = pages.has("/guestbook") ? "html-guestbook" : "html-home";
  const workload = WORKLOADS.find((w) => w.id === id);
  let base = null;
  const { NODE_ENV: _, ...developmentEnv } = ENV;
  const variants = [
    { name: "correctly configured", options: {} },
    { name: "NODE_ENV unset (React development build)", options: { env: developmentEnv } },
    { name: "default log level (request logging on)", options: { logLevel: "info" } },
  ];
  const rows = [];
  for (const variant of variants) {
    log(`trap: ${variant.name}`);
    // Both are traps of `wrangler dev`: measured through `wrangler dev` itself, as a developer meets them.
    const server = await start({
      name: "trap",
      config,
      state: appState,
      runner: "inspector",
      ...variant.options,
    });
    const [result] = await measure([server], workload, { ...timing, progress: null });
    await stopAll();
    base ??= result;
    rows.push(
      `| ${variant.name} | ${Math.round(result.rps)} (${(result.rps / base.rps).toFixed(2)}x) | ` +
        `${result.cpuMs.worker.toFixed(2)} (${(result.cpuMs.worker / base.cpuMs.worker).toFixed(2)}x) | ` +
        `${result.cpuMs.proxy.toFixed(2)} | ${result.cpuMs.node.toFixed(2)} |`,
    );
  }
  const text = [
    `Known traps of \`wrangler dev\`, ${workload.label}, measured through \`wrangler dev\` itself ` +
      `(its inspector attached, as always), each against the correctly configured first row:`,
    "",
    "| Configuration | req/s | worker CPU ms/req | proxy CPU | wrangler CPU |",
    "|---|---|---|---|---|",
    ...rows,
  ].join("\n");
  return { workload: id, text };
}
