// Reads CPU time from /proc: the processes that run one Worker, told apart by role.
import { readFileSync, readdirSync } from "node:fs";

/** Clock ticks per second for /proc/<pid>/stat times (USER_HZ: 100 on every Linux we run on). */
const TICKS_PER_SECOND = 100;

function stat(pid) {
  const text = readFileSync(`/proc/${pid}/stat`, "utf8");
  // Field 2 (comm) may hold spaces; fields after its closing parenthesis are fixed.
  return text.slice(text.lastIndexOf(")") + 2).split(" ");
}

/** CPU time (user + system) a process has used so far, in milliseconds. */
export function cpuMs(pid) {
  try {
    const fields = stat(pid);
    // After comm: index 0 is field 3 (state); utime is field 14, stime field 15.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return NaN; // the process is gone
  }
}

/**
 * CPU time a process's live threads have run, in milliseconds, from the scheduler's own count
 * (nanoseconds, not clock ticks): precise enough for a start-up of a few tens of milliseconds.
 * Only threads alive at the read count: a thread that ends between two reads takes its time
 * with it, so a difference of two reads is a lower bound (and read across such an exit, may even
 * fall below zero).
 */
export function threadsCpuMs(pid) {
  try {
    let ns = 0;
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0]);
    }
    return ns / 1e6;
  } catch {
    return NaN; // the process is gone
  }
}

function children() {
  const byParent = new Map();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const parent = Number(stat(name)[1]);
      const args = readFileSync(`/proc/${name}/cmdline`, "utf8").split("\0").filter(Boolean);
      if (!byParent.has(parent)) byParent.set(parent, []);
      byParent.get(parent).push({ pid: Number(name), args });
    } catch {
      // exited while we looked
    }
  }
  return byParent;
}

/**
 * The processes of one runner started as `rootPid` (start-direct.mjs or `wrangler dev`): `node`
 * (Miniflare's or wrangler's Node), `proxy` (wrangler's workerd that listens on the public port
 * and forwards to the Worker; none with start-direct.mjs) and `worker` (the workerd that runs the
 * Worker: the only one the edge has too).
 */
export function workerProcesses(rootPid, port) {
  const tree = children();
  const found = { node: null, proxy: null, worker: null };
  const visit = (pid) => {
    for (const child of tree.get(pid) ?? []) {
      const [command, ...rest] = child.args;
      if (command?.endsWith("/workerd")) {
        const publicEntry = rest.some((arg) => arg === `--socket-addr=entry=127.0.0.1:${port}`);
        found[publicEntry ? "proxy" : "worker"] = child.pid;
      } else if (rest.some((arg) => arg.endsWith("wrangler-dist/cli.js"))) {
        found.node = child.pid;
      }
      visit(child.pid);
    }
  };
  visit(rootPid);
  // start-direct.mjs runs Miniflare in the spawned Node itself.
  found.node ??= rootPid;
  // start-direct.mjs: one workerd, no proxy: the Worker's process listens on the public port.
  if (found.worker === null) [found.worker, found.proxy] = [found.proxy, null];
  return found;
}

/** The workerd processes started by `rootPid` (at any depth). */
export function workerdChildren(rootPid) {
  const tree = children();
  const found = [];
  const visit = (pid) => {
    for (const child of tree.get(pid) ?? []) {
      if (child.args[0]?.endsWith("/workerd")) found.push(child.pid);
      visit(child.pid);
    }
  };
  visit(rootPid);
  return found;
}

/** CPU milliseconds of each named process, for differences over a load window. */
export function sampleCpu(processes) {
  return Object.fromEntries(Object.entries(processes).map(([role, pid]) => [role, pid ? cpuMs(pid) : NaN]));
}
