// The known traps, measured: what a benchmark through `wrangler dev` reports if it forgets them.
import { ENV } from "./server.mjs";
import { measure } from "./load.mjs";
import { WORKLOADS } from "./workloads.mjs";

/**
 * Runs one HTML workload against two mis-configured app servers: React's development build
 * (NODE_ENV unset) and wrangler's default log level (a line per request). Compared with the
 * same workload of the main run.
 */
export async function measureTraps({ config, appState, timing, start, stopAll, log, run, pages }) {
  const id = pages.has("/guestbook") ? "html-guestbook" : "html-home";
  const workload = WORKLOADS.find((w) => w.id === id);
  const base = run.workloads[id].app;
  const { NODE_ENV: _, ...developmentEnv } = ENV;
  const variants = [
    { name: "NODE_ENV unset (React development build)", options: { env: developmentEnv } },
    { name: "default log level (request logging on)", options: { logLevel: "info" } },
  ];
  const rows = [];
  for (const variant of variants) {
    log(`trap: ${variant.name}`);
    const server = await start({ name: "trap", config, state: appState, ...variant.options });
    const [result] = await measure([server], workload, { ...timing, progress: null });
    await stopAll();
    rows.push(
      `| ${variant.name} | ${Math.round(result.rps)} (${(result.rps / base.rps).toFixed(2)}x) | ` +
        `${result.cpuMs.worker.toFixed(2)} (${(result.cpuMs.worker / base.cpuMs.worker).toFixed(2)}x) | ` +
        `${result.cpuMs.proxy.toFixed(2)} | ${result.cpuMs.node.toFixed(2)} |`,
    );
  }
  const text = [
    `Known traps, ${workload.label}, against this run's correctly configured app ` +
      `(${Math.round(base.rps)} req/s, worker CPU ${base.cpuMs.worker.toFixed(2)} ms/req, ` +
      `proxy ${base.cpuMs.proxy.toFixed(2)}, wrangler ${base.cpuMs.node.toFixed(2)}):`,
    "",
    "| Mis-configuration | req/s | worker CPU ms/req | proxy CPU | wrangler CPU |",
    "|---|---|---|---|---|",
    ...rows,
  ].join("\n");
  return { workload: id, text };
}
