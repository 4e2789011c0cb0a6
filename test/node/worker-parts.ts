// The worker bundle by part, for its byte budgets (worker-bundle.test.ts): the runtime (verge's
// server code and the packages it imports, React and hono among them), the example app, and what a
// product adds beyond the example, each byte placed by the bundle's source map, against the figures
// recorded in worker-bundle.json when the budgets were last set.
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { decode } from "@jridgewell/sourcemap-codec";
import { root } from "./dist";
import { stableGzip } from "./stable-size";

const RECORD = path.join(import.meta.dirname, "worker-bundle.json");

export type PartName = "runtime" | "example" | "beyond";

/** A part as measured: its gzipped total, and each module's bytes gzipped alone. */
export interface Part {
  total: number;
  modules: Record<string, number>;
}

/** What worker-bundle.json holds: when it was measured, each part's figures then, and two budgets. */
export interface Recorded {
  measured: string;
  parts: Record<"runtime" | "example", { budget: number } & Part> & { beyond: Part };
}

export const recorded = (): Recorded => JSON.parse(readFileSync(RECORD, "utf8")) as Recorded;

/** A stretch of the bundle and the module it came from: a package, a source file, the client manifest. */
export interface Span {
  text: string;
  module: string;
}

/** Where the worker embeds the client build's manifest (virtual:verge/manifest, which has no map). */
export const CLIENT_MANIFEST = "client manifest";
const BUILT_INS = "node built-ins";

/** "hono" for node_modules/hono/dist/index.js, "@sentry/core" for a scoped one. */
function packageOf(source: string): string | undefined {
  const at = source.lastIndexOf("node_modules/");
  if (at < 0) return undefined;
  const [scope, name] = source.slice(at + "node_modules/".length).split("/");
  return scope!.startsWith("@") ? `${scope}/${name}` : scope;
}

const moduleOf = (source: string) =>
  packageOf(source) ?? (source.startsWith("builtin:") ? BUILT_INS : source);

/**
 * The bundle cut into spans, each given to a module: a mapped segment runs to the next one; text no
 * segment maps goes to the next mapped module (the bundler's wrapper opens the module after it, a
 * template literal's later lines have no segment of their own), or to the last one at the end. The
 * client manifest (found by its build ID) is unmapped and a module of its own.
 */
export function spansOf(code: string, map: { sources: string[]; mappings: string }, build: string): Span[] {
  const manifest = new RegExp(`build:[\`"']${build}[\`"']`);
  const lines = code.split("\n");
  // Each line's segments: [column, source, ...] (a segment of one field maps to no source).
  const decoded = decode(map.mappings).map((segments) =>
    segments.map((segment) => ({ column: segment[0], source: segment.length > 1 ? segment[1]! : -1 })),
  );
  const raw: { text: string; source: number }[] = [];
  lines.forEach((line, index) => {
    const starts = [{ column: 0, source: -1 }, ...(decoded[index] ?? [])];
    starts.forEach((start, i) => {
      const end = i + 1 < starts.length ? starts[i + 1]!.column : line.length;
      const text =
        line.slice(start.column, end) + (i + 1 === starts.length && index + 1 < lines.length ? "\n" : "");
      if (text) raw.push({ text, source: start.source });
    });
  });
  const spans: Span[] = [];
  let pending = "";
  for (const { text, source } of raw) {
    if (source < 0 && manifest.test(text)) spans.push({ text, module: CLIENT_MANIFEST });
    else if (source < 0) pending += text;
    else {
      spans.push({ text: pending + text, module: moduleOf(map.sources[source]!) });
      pending = "";
    }
  }
  if (pending) spans.push({ text: pending, module: spans.at(-1)?.module ?? BUILT_INS });
  return spans;
}

/** Bare imports (`from "x"`, `import("x")`) of the runtime's own sources, as package names. */
function importedPackages(): Set<string> {
  const files = ["src/worker.ts"];
  for (const dir of ["src/server", "src/shared"])
    for (const file of readdirSync(path.join(root, dir), { recursive: true }).map(String))
      if (/\.tsx?$/.test(file)) files.push(path.join(dir, file));
  const found = new Set<string>();
  for (const file of files) {
    const source = readFileSync(path.join(root, file), "utf8");
    for (const [, specifier] of source.matchAll(/(?:from|import)\s*\(?\s*"([^"./][^"]*)"/g)) {
      if (/^(verge|virtual:|cloudflare:|node:)/.test(specifier!)) continue;
      const [first, second] = specifier!.split("/");
      found.add(first!.startsWith("@") ? `${first}/${second}` : first!);
    }
  }
  return found;
}

/** The packages the runtime imports and what they depend on (React, hono, toucan-js and Sentry's under it). */
export function runtimePackages(): Set<string> {
  const packages = importedPackages();
  // A Set visits what is added while it is iterated: dependencies of dependencies too.
  for (const name of packages) {
    const file = path.join(root, "node_modules", name, "package.json");
    if (!existsSync(file)) continue; // a type-only import's package, or one installed nested
    const { dependencies = {} } = JSON.parse(readFileSync(file, "utf8")) as {
      dependencies?: Record<string, string>;
    };
    for (const dependency of Object.keys(dependencies)) packages.add(dependency);
  }
  return packages;
}

/**
 * Which part a module's bytes count for. The runtime: src/ but src/app/, the packages it imports
 * (runtimePackages), Node's built-ins. The app: the rest (src/app/, the packages only the app
 * imports), the example's if the record names the module, else beyond it; and the client manifest,
 * beyond it too (one entry per browser module: as many as the product has pages).
 */
export function partOf(module: string, runtime: Set<string>, example: Set<string>): PartName {
  if (module === CLIENT_MANIFEST) return "beyond";
  const ours = (module.startsWith("src/") && !module.startsWith("src/app/")) || module === BUILT_INS;
  if (ours || runtime.has(module)) return "runtime";
  return example.has(module) ? "example" : "beyond";
}

/**
 * Each part's bytes: its spans joined in bundle order and gzipped (stableGzip), so what compresses
 * against the part's own text counts, not what it shares with another part's. The parts' totals
 * add up to a little more than the whole bundle's gzip (which also finds matches across parts).
 */
export function measure(spans: Span[], runtime: Set<string>, example: Set<string>): Record<PartName, Part> {
  const texts: Record<PartName, string[]> = { runtime: [], example: [], beyond: [] };
  const modules: Record<string, string[]> = {};
  for (const { text, module } of spans) {
    texts[partOf(module, runtime, example)].push(text);
    (modules[module] ??= []).push(text);
  }
  const part = (name: PartName): Part => ({
    total: stableGzip(texts[name].join("")),
    modules: Object.fromEntries(
      Object.keys(modules)
        .filter((module) => partOf(module, runtime, example) === name)
        .sort()
        .map((module) => [module, stableGzip(modules[module]!.join(""))]),
    ),
  });
  return { runtime: part("runtime"), example: part("example"), beyond: part("beyond") };
}

const bytes = (n: number) => `${n.toLocaleString("en")} B`;
const signed = (n: number) => `${n >= 0 ? "+" : ""}${n.toLocaleString("en")} B`;

/** What to do about each part when it is over its budget. */
const DECIDE: Record<"runtime" | "example", string> = {
  runtime:
    "The runtime's bytes are every product's: Workers load the whole bundle at each start, so they " +
    "cost start-up time (issue 49 holds the example's worker to 130,000 B gzip; this budget is what " +
    "that leaves beside the example). If what grew is worth it, raise the budget in " +
    "test/node/worker-bundle.json, at most to 130,000 B less what the example measured when the bound " +
    "was split (EXAMPLE_WHEN_SPLIT in worker-bundle.test.ts: past it, shrink the example and say so " +
    "there, or say why the bound moves), say why in the commit, and record the modules: " +
    "RECORD_WORKER_BUNDLE=1 npx vitest run --project node " +
    "test/node/worker-bundle.test.ts. If not, find what brought it in (a package's new version, or a " +
    "module of src/server or src/shared a page now uses: dist/verge/index.js.map lists them) and " +
    "keep it out of the worker.",
  example:
    "The example's own modules grew (a product's new modules are not held here: they count beyond " +
    "the example; a module the example itself gained joins it with RECORD_WORKER_BUNDLE=example). " +
    "If what grew is worth it, raise the example's budget in " +
    "test/node/worker-bundle.json to at least 5% over what it measures, record the modules " +
    "(RECORD_WORKER_BUNDLE=1 npx vitest run --project node test/node/worker-bundle.test.ts), and say " +
    "why in the commit: the example's worker may then pass 130 KB. If not, move what grew out of the " +
    "worker (to the browser, or to a module one page loads).",
};

/**
 * Why `name` is over its budget, module by module against the recorded figures, and how to decide:
 * what a failing worker budget prints. Only the modules that moved are listed.
 */
export function overBudget(name: "runtime" | "example", part: Part, record = recorded()): string {
  const then = record.parts[name];
  const names = [...new Set([...Object.keys(part.modules), ...Object.keys(then.modules)])];
  const moved = names
    .map((module) => ({ module, now: part.modules[module] ?? 0, was: then.modules[module] ?? 0 }))
    .filter(({ now, was }) => now !== was)
    .sort((a, b) => b.now - b.was - (a.now - a.was) || a.module.localeCompare(b.module));
  return [
    `The worker's ${name} part is ${bytes(part.total)} gzip, over its budget of ${bytes(then.budget)} ` +
      `(${bytes(then.total)} when recorded on ${record.measured}, ${signed(part.total - then.total)}). ` +
      `What moved, each module gzipped alone (so rows do not add up to the total):`,
    ...moved.map(
      ({ module, now, was }) =>
        `  ${module}: ${bytes(now)} (${bytes(was)} when measured, ${signed(now - was)})`,
    ),
    `  (${names.length - moved.length} modules unchanged)`,
    `To decide: ${DECIDE[name]}`,
  ].join("\n");
}

/**
 * With RECORD_WORKER_BUNDLE=1 (or =example, worker-bundle.test.ts): writes today's figures beside
 * the budgets (the budgets stay), the example's modules as they were recorded.
 */
export function recordIfAsked(parts: Record<PartName, Part>): void {
  if (!process.env.RECORD_WORKER_BUNDLE) return;
  const now = recorded();
  for (const name of ["runtime", "example"] as const)
    now.parts[name] = { ...now.parts[name], ...parts[name] };
  now.parts.beyond = parts.beyond;
  now.measured = new Date().toISOString().slice(0, 10);
  writeFileSync(RECORD, JSON.stringify(now, null, 2) + "\n");
}
