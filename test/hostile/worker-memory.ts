// The memory of the workerd process that runs the app, read from Linux's /proc: its resident set
// now, and its peak since the last reset (writing "5" to clear_refs resets VmHWM). A fresh
// `npm run preview` of its own keeps earlier tests' memory, which workerd's allocator holds on to
// and reuses, from hiding what one request costs.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { freePort } from "../support/free-port";
import { seedMigratedD1 } from "../e2e/migrated-d1";

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
 * The workerd process that runs the app of the local server `serverPid` (`npm run preview`):
 * Miniflare starts one, under the server's Node process.
 */
export function appWorkerdPid(serverPid: number): number {
  const workerd = readdirSync(PROC)
    .filter((name) => /^\d+$/.test(name))
    .filter(
      (pid) => readProc(pid, "cmdline")?.includes("workerd") && readProc(pid, "cmdline")?.includes("serve"),
    )
    .filter((pid) => Number(parentOf(readProc(pid, "stat") ?? ")  0 0")) === serverPid);
  if (workerd.length !== 1)
    throw new Error(`expected one workerd under process ${serverPid}, found ${workerd.length}`);
  return Number(workerd[0]);
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

/** How long one start may take to answer: seconds alone; past this it is started again. */
const ATTEMPT_MS = 60_000;
/** How long starting may take in all: three starts. */
export const START_MS = 3 * ATTEMPT_MS;

/** `npm run preview` of the app of its own (the last build), on a free port, with `vars`; stop() ends it. */
export async function startPreviewServer(vars: Record<string, string>) {
  // A port found free can be taken before the server binds it (by another run's connections, in
  // CI beside a second run): twice a start never answered. A start that exits or does not answer
  // is tried again on other ports, and a last failure says why, with the server's output.
  for (let attempt = 1; ; attempt++) {
    const started = await startOnce(vars);
    if (started.ok) return started.server;
    const failure = `npm run preview did not start (${started.why}); its output ends:\n${started.tail}`;
    if (attempt === 3) throw new Error(failure);
    console.warn(`${failure}\nStarting it again (attempt ${attempt + 1} of 3).`);
  }
}

async function startOnce(vars: Record<string, string>) {
  const state = await mkdtemp(path.join(os.tmpdir(), "verge-memory-"));
  // The migrated local D1 the run's servers copy: no wrangler run of its own to wait for.
  await seedMigratedD1(state);
  const port = await freePort();
  const args = ["scripts/serve.mjs", "preview", "--no-build", "--ip", "127.0.0.1", "--port", String(port)];
  args.push("--persist-to", state, "--inspector-port", String(await freePort()));
  for (const [name, value] of Object.entries(vars)) args.push("--var", `${name}:${value}`);
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const keep = (chunk: Buffer) => void (output = (output + chunk.toString()).slice(-4000));
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  const baseURL = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      await new Promise((resolve) => child.once("exit", resolve));
    }
    await rm(state, { recursive: true, force: true });
  };
  const deadline = Date.now() + ATTEMPT_MS;
  while (Date.now() < deadline && child.exitCode === null) {
    const status = await fetch(`${baseURL}/monitoring`, { signal: AbortSignal.timeout(10_000) }).then(
      (response) => response.status,
      () => null,
    );
    if (status === 405) return { ok: true as const, server: { baseURL, pid: child.pid!, stop } };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const why =
    child.exitCode !== null
      ? `it exited with code ${child.exitCode}`
      : `no answer within ${ATTEMPT_MS / 1000} s`;
  await stop();
  const tail = output.split("\n").slice(-15).join("\n");
  return { ok: false as const, why, tail };
}
