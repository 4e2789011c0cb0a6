// Records a run: the machine it ran on, and the run appended to BENCHMARKS.md, bench/history.json
// and the chart bench/ratios.svg.
import { readFileSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import * as prettier from "prettier";
import os from "node:os";
import path from "node:path";
import { ratiosChart } from "./chart.mjs";
import { root } from "./server.mjs";
import { ratios, summary } from "./summary.mjs";

const historyFile = path.join(root, "bench/history.json");

export function machine(argv) {
  const cpu = readFileSync("/proc/cpuinfo", "utf8").match(/^model name\s*:\s*(.*)$/m)?.[1] ?? "unknown";
  return {
    date: new Date().toISOString(),
    machine: {
      nproc: os.availableParallelism(),
      cpu,
      memoryGiB: +(os.totalmem() / 1024 ** 3).toFixed(1),
      node: process.version,
    },
    command: ["npm run bench", ...(argv.length ? ["--", ...argv] : [])].join(" "),
  };
}

/** Writes `text` to `file` as Prettier would format it, so `npm run format:check` stays green. */
async function writeFormatted(file, text) {
  const options = (await prettier.resolveConfig(file)) ?? {};
  await writeFile(file, await prettier.format(text, { ...options, filepath: file }));
}

export async function record(run) {
  const history = JSON.parse(await readFile(historyFile, "utf8").catch(() => "[]"));
  history.push({ ...run, ratios: ratios(run) });
  await writeFormatted(historyFile, JSON.stringify(history));
  const benchmarks = path.join(root, "BENCHMARKS.md");
  await writeFormatted(benchmarks, (await readFile(benchmarks, "utf8")) + "\n" + summary(run));
  await writeFile(path.join(root, "bench/ratios.svg"), ratiosChart(history));
}
