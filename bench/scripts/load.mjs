// Drives one workload with autocannon after a warm-up, and reads the servers' CPU over the window.
import autocannon from "autocannon";
import { sampleCpu } from "./proc.mjs";
import { renderHeaders } from "./render-bookmark.mjs";

/** Concurrent connections: enough to keep two cores busy, few enough to queue little. */
export const CONNECTIONS = 8;

function run(options) {
  return new Promise((resolve, reject) => {
    autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

function optionsFor(server, workload, rate = 0) {
  return {
    url: server.url + workload.path,
    connections: CONNECTIONS,
    pipelining: 1,
    method: workload.method ?? "GET",
    headers: {
      ...workload.headers,
      // Sealed as the window starts: verge accepts a bookmark for a minute.
      ...(workload.render ? renderHeaders() : {}),
      ...(workload.origin ? { origin: server.url } : {}),
    },
    requests: workload.setupRequest ? [{ setupRequest: workload.setupRequest }] : undefined,
    timeout: 20,
    // 0: as fast as the server answers (autocannon refuses 0 itself); otherwise a fixed rate.
    overallRate: rate || undefined,
  };
}

/** One window of load on one server, with the CPU each of its processes used meanwhile. */
async function window(server, workload, seconds, rate) {
  const before = sampleCpu(server.processes);
  const result = await run({ ...optionsFor(server, workload, rate), duration: seconds });
  const after = sampleCpu(server.processes);
  const cpu = Object.fromEntries(Object.keys(before).map((role) => [role, after[role] - before[role]]));
  return { result, cpu };
}

/**
 * Measures `workload` on each of `servers`: a warm-up each (JIT, caches, D1 pages), then
 * `durationS` seconds each, cut into `rounds` windows that alternate between the servers, so a
 * burst of load from elsewhere on the machine falls on both alike. CPU is read from /proc.
 */
export function measure(servers, workload, options) {
  return measureEach(
    servers.map((server) => ({ server, workload })),
    options,
  );
}

/**
 * Measures each `{ server, workload }` as `measure` does, in windows that alternate between
 * them: two workloads on one server compare as steadily as one workload on two servers.
 */
export async function measureEach(subjects, { durationS, warmupS, rounds, rate, progress }) {
  if (warmupS > 0)
    for (const { server, workload } of subjects)
      await run({ ...optionsFor(server, workload, rate), duration: warmupS });
  const windows = subjects.map(() => []);
  for (let round = 1; round <= rounds; round++) {
    for (const [i, { server, workload }] of subjects.entries())
      windows[i].push(await window(server, workload, durationS / rounds, rate));
    progress?.(round, rounds);
  }
  return windows.map((list) => {
    const sum = (pick) => list.reduce((total, w) => total + pick(w), 0);
    const requests = sum((w) => w.result.requests.total);
    const median = (pick) => list.map(pick).sort((a, b) => a - b)[Math.floor(list.length / 2)];
    return {
      requests,
      rps: requests / sum((w) => w.result.duration),
      // Percentiles do not add up across windows: the median window's p50, the worst window's p99.
      p50: median((w) => w.result.latency.p50),
      p99: Math.max(...list.map((w) => w.result.latency.p99)),
      errors: sum((w) => w.result.errors + w.result.timeouts),
      non2xx: sum((w) => w.result.non2xx),
      cpuMs: Object.fromEntries(
        Object.keys(list[0].cpu).map((role) => [role, sum((w) => w.cpu[role]) / requests]),
      ),
      // Each window's own: a ratio of two subjects window by window shows how far to trust it.
      workerCpuMsPerWindow: list.map((w) => w.cpu.worker / w.result.requests.total),
    };
  });
}
