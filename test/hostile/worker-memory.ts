// The memory of the workerd process that runs the app, read from Linux's /proc: its resident set
// now, and its peak since the last reset (writing "5" to clear_refs resets VmHWM). A fresh
// `wrangler dev` of its own keeps earlier tests' memory, which workerd's allocator holds on to
// and reuses, from hiding what one request costs.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { freePort, wranglerDevArgs } from "../../scripts/local-server.mjs";

const PROC = "/proc";
const root = path.resolve(import.meta.dirname, "../..");

function readProc(pid: string, file: string): string | null {
  try {
    return readFileSync(`${PROC}/${pid}/${file}`, "utf8");
  } catch {
    return null; // gone, or not ours
  }
}

/** Parent pid from /proc/<pid>/stat (the command name, in parentheses, may hold spaces). */
const parentOf = (stat: string) => stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1];

/**
 * wrangler dev runs two workerd processes side by side: its proxy, listening on the port the
 * browser uses, and the one running the app. The app's is the proxy's sibling.
 */
export function appWorkerdPid(baseURL: string): number {
  const port = new URL(baseURL).port;
  const processes = readdirSync(PROC)
    .filter((name) => /^\d+$/.test(name))
    .map((pid) => ({ pid, cmdline: readProc(pid, "cmdline"), stat: readProc(pid, "stat") }))
    .filter((p) => p.cmdline?.includes("workerd") && p.cmdline.includes("serve") && p.stat);
  const proxy = processes.find((p) => p.cmdline!.includes(`--socket-addr=entry=127.0.0.1:${port}\0`));
  if (!proxy) throw new Error(`no workerd listens on port ${port}`);
  const parent = parentOf(proxy.stat!);
  const app = processes.filter((p) => p.pid !== proxy.pid && parentOf(p.stat!) === parent);
  if (app.length !== 1) throw new Error(`expected one app workerd beside the proxy, found ${app.length}`);
  return Number(app[0]!.pid);
}

const kib = (pid: number, field: string) =>
  Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readProc(String(pid), "status")!)![1]);

/** How far `send` raises the process's resident set above what it was before, at its peak, in KiB. */
export async function peakRiseKiB(pid: number, send: () => Promise<unknown>): Promise<number> {
  writeFileSync(`${PROC}/${pid}/clear_refs`, "5");
  const before = kib(pid, "VmRSS");
  await send();
  return kib(pid, "VmHWM") - before;
}

/** A `wrangler dev` of the app of its own, on free ports, with `vars`; stop() ends it. */
export async function startDevServer(vars: Record<string, string>) {
  const state = await mkdtemp(path.join(os.tmpdir(), "verge-memory-"));
  const port = await freePort();
  const extra = ["--inspector-port", String(await freePort())];
  for (const [name, value] of Object.entries(vars)) extra.push("--var", `${name}:${value}`);
  const child = spawn(
    path.join(root, "node_modules/.bin/wrangler"),
    wranglerDevArgs({ port, persistTo: state, extra }),
    {
      cwd: root,
      env: { ...process.env, WRANGLER_SEND_METRICS: "false", NO_COLOR: "1" },
      stdio: "ignore",
    },
  );
  const baseURL = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill("SIGTERM");
      await new Promise((resolve) => child.once("exit", resolve));
    }
    await rm(state, { recursive: true, force: true });
  };
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline && child.exitCode === null) {
    const status = await fetch(`${baseURL}/monitoring`).then(
      (response) => response.status,
      () => null,
    );
    if (status === 405) return { baseURL, stop };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await stop();
  throw new Error("wrangler dev did not start within 90 s");
}
