// The memory of the workerd process that runs the app, read from Linux's /proc: its resident set
// now, and its peak since the last reset (writing "5" to clear_refs resets VmHWM). A fresh
// `npm run preview` of its own keeps earlier tests' memory, which workerd's allocator holds on to
// and reuses, from hiding what one request costs.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { PreviewOptions } from "../../src/test/browser/preview";
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

/**
 * `npm run preview` of the app of its own (the last build) with `vars`, on free ports, from the
 * migrated local D1 the run's servers copy (usePreview's options). It serves once /monitoring
 * answers a GET with 405: no page rendered before the memory is read. A start may take a minute
 * before it is started again.
 */
export function memoryPreview(vars: Record<string, string>): PreviewOptions {
  return {
    root,
    built: true,
    vars,
    prepare: seedMigratedD1,
    ready: { path: "/monitoring", status: 405 },
    attemptMs: 60_000,
  };
}
