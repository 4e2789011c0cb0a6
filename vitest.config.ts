// Three projects: worker tests inside workerd, build checks in Node, and browser tests
// in Chromium against `npm run preview` and `npm run dev`. `npm test` runs them all. test/hostile/ gathers every
// hostile case in one folder; its suffix picks the project (.worker, .node, .e2e).
import path from "node:path";
import { defineConfig } from "vitest/config";
import { chromiumMissing } from "./test/support/chromium.ts";
import PreviewFilesFirst from "./test/e2e/sequencer.ts";

/**
 * Whether this run includes project `name`: every project runs unless --project picks others
 * (a name, a `*` pattern such as `workerd*`, or `!name` to leave one out).
 */
function runs(name: string, argv = process.argv): boolean {
  const picked = argv.flatMap((arg, i) =>
    arg.startsWith("--project=") ? [arg.slice(10)] : arg === "--project" ? [argv[i + 1] ?? ""] : [],
  );
  const escape = (part: string) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&");
  const matches = (pattern: string) =>
    new RegExp(`^${pattern.split("*").map(escape).join(".*")}$`).test(name);
  const wanted = picked.filter((pattern) => !pattern.startsWith("!"));
  const unwanted = picked.filter((pattern) => pattern.startsWith("!")).map((pattern) => pattern.slice(1));
  return (wanted.length === 0 || wanted.some(matches)) && !unwanted.some(matches);
}

/**
 * Worker test files that need storage no other file has touched: /slow not yet in the edge cache
 * (its streaming is what they watch), a guestbook no other file has written to, or entries dated in
 * the future, which would keep every later entry off the guestbook's first page for other files.
 */
const OWN_STORAGE = [
  "test/worker/d1-replica-lag.test.ts",
  "test/worker/deferred-timeout.test.ts",
  "test/worker/guestbook-paging.test.ts",
  "test/hostile/guestbook-paging.worker.test.ts",
  "test/worker/request-log.test.ts",
  "test/worker/scheduled.test.ts",
  "test/worker/streaming.test.ts",
  "test/worker/visitor-left.test.ts",
];

/**
 * The projects of worker tests inside workerd, with local D1 and the migrations applied. Their
 * pool and plugins load only when a workerd project runs: loading them costs about 2 s, most of
 * the start of a run of one browser file.
 */
async function workerdProjects() {
  const { cloudflareTest, readD1Migrations } = await import("@cloudflare/vitest-pool-workers");
  const { verge } = await import("verge/vite");
  const migrations = await readD1Migrations(path.join(import.meta.dirname, "migrations"));
  const project = (name: string, files: { include?: string[]; exclude?: string[]; isolate: boolean }) => ({
    plugins: [
      // The worker's client manifest (virtual:verge/manifest), as the runtime is deployed.
      verge(),
      cloudflareTest({
        main: "./src/worker.ts",
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: { bindings: { TEST_MIGRATIONS: migrations } },
      }),
    ],
    test: {
      name,
      include: files.include ?? ["test/worker/**/*.test.{ts,tsx}", "test/hostile/**/*.worker.test.{ts,tsx}"],
      exclude: files.exclude ?? [],
      isolate: files.isolate,
      // A test asserts what a client sees, not how fast: beside the browser tests (test/run.mjs) a
      // test of a few hundred requests to the relay has taken 7.6 s, over vitest's 5 s.
      testTimeout: 30_000,
      setupFiles: [
        "./test/worker/apply-migrations.ts",
        "./test/worker/no-uncaught.ts",
        ...(files.isolate ? [] : ["./test/worker/warm-cache.ts"]),
      ],
      globalSetup: ["./test/worker/global-setup.ts"],
    },
  });
  return [
    // The workerd files share one workerd per vitest worker (`isolate: false`): a workerd started
    // per file cost about 2.5 s each. They share its storage too (D1, the edge cache), so a file
    // that needs an empty edge cache or a D1 of its own runs in the second project.
    project("workerd", { exclude: OWN_STORAGE, isolate: false }),
    project("workerd-own-storage", { include: OWN_STORAGE, isolate: true }),
  ];
}

export default defineConfig(async () => {
  // Without a browser, stop before any test with one line, not a launch error per browser test.
  const missing = runs("chromium") ? chromiumMissing() : null;
  if (missing) {
    console.error(missing);
    process.exit(1);
  }
  return {
    test: {
      // Both cores (vitest's default leaves one idle): the browser tests' servers start and the
      // workerd tests run side by side, about a minute less for `npm test` on 2 cores.
      maxWorkers: 2,
      // A passing test's console (the worker's request log lines, a server's output) is noise: it
      // is printed for a failing test only, where it tells what the worker saw.
      silent: "passed-only",
      // Vitest's order, but the browser files on the preview alone first (test/e2e/sequencer.ts).
      sequence: { sequencer: PreviewFilesFirst },
      projects: [
        ...(runs("workerd") || runs("workerd-own-storage") ? await workerdProjects() : []),
        {
          test: {
            name: "node",
            environment: "node",
            include: ["test/node/**/*.test.ts", "test/hostile/**/*.node.test.ts"],
            testTimeout: 120_000,
            // A beforeAll compiles with tsc (type-errors.test.ts): over vitest's 10 s on a busy machine.
            hookTimeout: 120_000,
          },
        },
        {
          test: {
            name: "chromium",
            environment: "node",
            include: ["test/e2e/**/*.test.ts", "test/hostile/**/*.e2e.test.ts"],
            globalSetup: ["./test/e2e/global-setup.ts"],
            setupFiles: ["./test/e2e/servers-ready.ts"],
            testTimeout: 60_000,
            hookTimeout: 120_000,
            // expect.poll waits for what a visitor would see; on a busy machine that can take more
            // than vitest's default second, and a wait is not a speed check.
            expect: { poll: { timeout: 15_000 } },
            // One set of servers serves every file; run them one at a time, in one Node worker (the
            // files share nothing but those servers, so a fresh process per file bought nothing but
            // a second of start-up each). A project of one worker runs in its own group, after the
            // workerd and node projects.
            fileParallelism: false,
            isolate: false,
            sequence: { groupOrder: 1 },
          },
        },
      ],
    },
  };
});
