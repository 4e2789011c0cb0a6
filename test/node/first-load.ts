// First loads by part, for the byte budgets (budgets.test.ts): what every page loads (the runtime,
// React and the app's shell) and what each page adds to it, chunk by chunk, against the figures
// recorded in first-load.json when the budgets were last set.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { asset, readBuild, staticClosure } from "./dist";
import { stableGzip } from "./stable-size";

const RECORD = path.join(import.meta.dirname, "first-load.json");

/**
 * A part of a first load: its gzipped bytes by chunk (other chunks' hashes in it measured as
 * stand-ins: stable-size.ts), named by the chunk's first module.
 */
export type Part = Record<string, number>;

/** What first-load.json holds: when it was measured, and each part's budget and chunks then. */
interface Recorded {
  measured: string;
  parts: Record<string, { budget: number; chunks: Part }>;
}

export const recorded = (): Recorded => JSON.parse(readFileSync(RECORD, "utf8")) as Recorded;

/** "guestbook" for /assets/guestbook-BN5GDuqL.js: stable across builds, unlike its hash. */
const chunkName = (href: string) => path.posix.basename(href).replace(/-[\w-]{8}\.js$/, "");

/** Every page's part (`"runtime"`: the entry and its imports), or a page module's own beyond it. */
export function partOf(module: "runtime" | string): Part {
  const { manifest } = readBuild();
  const shared = staticClosure([manifest.entry]);
  let hrefs = shared;
  if (module !== "runtime") {
    const page = manifest.modules[module];
    if (!page) throw new Error(`${module} has no chunk of its own in the client build`);
    hrefs = new Set([...staticClosure([page.file])].filter((href) => !shared.has(href)));
  }
  return Object.fromEntries([...hrefs].map((href) => [chunkName(href), stableGzip(asset(href))]));
}

export const total = (part: Part) => Object.values(part).reduce((sum, bytes) => sum + bytes, 0);

/**
 * Why `name` is over its budget, chunk by chunk against the recorded figures, and how to decide:
 * what a failing budget test prints.
 */
export function overBudget(name: string, part: Part, less = 0): string {
  const { measured, parts } = recorded();
  const then = parts[name]!;
  const names = [...new Set([...Object.keys(part), ...Object.keys(then.chunks)])].sort();
  const rows = names.map((chunk) => {
    const now = part[chunk] ?? 0;
    const was = then.chunks[chunk] ?? 0;
    const delta = now - was;
    return `  ${chunk}: ${now} B (${was} B when measured, ${delta >= 0 ? "+" : ""}${delta} B)`;
  });
  return [
    `${name}'s first load is ${total(part) - less} B gzip, over its budget of ${then.budget} B ` +
      `(recorded ${measured}). By chunk:`,
    ...rows,
    "To decide: if what grew is worth its bytes to every visitor of this page, raise the budget in " +
      "test/node/first-load.json by what you measured and say why in the commit (and record the " +
      "chunks: RECORD_FIRST_LOAD=1 npx vitest run --project node test/node/budgets.test.ts). If not, " +
      "find what pulled it in (dist/client-build.json lists each chunk's modules) and load it on " +
      "demand with import().",
  ].join("\n");
}

/** With RECORD_FIRST_LOAD=1: writes today's chunks beside the budgets (the budgets stay). */
export function recordIfAsked(parts: Record<string, Part>): void {
  if (!process.env.RECORD_FIRST_LOAD) return;
  const now = recorded();
  for (const [name, chunks] of Object.entries(parts)) now.parts[name] = { ...now.parts[name]!, chunks };
  now.measured = new Date().toISOString().slice(0, 10);
  writeFileSync(RECORD, JSON.stringify(now, null, 2) + "\n");
}
