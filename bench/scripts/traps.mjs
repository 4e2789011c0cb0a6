// The known traps, measured: what a benchmark through `wrangler dev` reports if it forgets them.
import { cp } from "node:fs/promises";
import { ENV } from "./server.mjs";
import { measure } from "./load.mjs";
import { WORKLOADS } from "./workloads.mjs";

/**
 * Runs one HTML workload through `wrangler dev`, correctly configured and then
 * mis-configured two ways: React's development build (NODE_ENV unset) and wrangler's default
 * log level (a line per request). Each is compared with the correctly configured one. Then the
 * trap of workerd through Miniflare: its entry Worker and the local asset router in front.
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
    "",
    await measureRouting({ config, appState, timing, start, stopAll, log, workload }),
  ].join("\n");
  return { workload: id, text };
}

/**
 * The app on its own socket against the app behind Miniflare's entry Worker and the local asset
 * router, in alternating windows. The routed one reads a copy of the state, as the floor does.
 */
async function measureRouting({ config, appState, timing, start, stopAll, log, workload }) {
  log("trap: Miniflare's entry Worker and asset router in front");
  const routedState = `${appState}-routed`;
  await cp(appState, routedState, { recursive: true });
  const own = await start({ name: "own-socket", config, state: appState, runner: "direct" });
  const routed = await start({ name: "routed", config, state: routedState, runner: "routed" });
  const [a, b] = await measure([own, routed], workload, { ...timing, progress: null });
  await stopAll();
  const row = (name, r) =>
    `| ${name} | ${Math.round(r.rps)} (${(r.rps / a.rps).toFixed(2)}x) | ` +
    `${r.cpuMs.worker.toFixed(2)} (${(r.cpuMs.worker / a.cpuMs.worker).toFixed(2)}x) |`;
  return [
    `On workerd through Miniflare (the default runner), ${workload.label}: the Worker on its own ` +
      `socket, and behind the Workers Miniflare runs in front of it on its public port, in the ` +
      `same process (its entry Worker and the local asset router), in alternating windows:`,
    "",
    "| In front of the Worker | req/s | worker process CPU ms/req |",
    "|---|---|---|",
    row("nothing (how the runs measure)", a),
    row("Miniflare's entry Worker and asset router", b),
  ].join("\n");
}
