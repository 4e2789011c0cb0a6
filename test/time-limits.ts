// A vitest reporter that holds each test's time against its time limit, and each hook's against
// its project's hookTimeout: a limit within 3x of what its test takes fails under a busy machine.
// It prints the closest ones at the end of the run, and writes every row to
// dist/time-limits/<the run's projects>.json (`npm test` runs two vitest processes).
//   npx vitest run --project node --reporter=dot --reporter=./test/time-limits.ts
// docs/testing.md says how to read it.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Reporter, TestCase, TestModule } from "vitest/node";
import type { ReportedHookContext } from "vitest/reporters";

/** How many times its measured time a limit must be: closer than this is reported. */
const MARGIN = 3;
/** How many of the closest rows are printed. */
const SHOWN = 10;

interface Row {
  kind: "test" | "beforeAll" | "afterAll" | "beforeEach" | "afterEach";
  project: string;
  file: string;
  name: string;
  ms: number;
  limit: number;
}

const root = path.resolve(import.meta.dirname, "..");

export default function timeLimits(): Reporter {
  const rows: Row[] = [];
  /** When each running hook started, by its entity and name. */
  const started = new Map<string, number>();
  const keyOf = (hook: ReportedHookContext) => `${hook.entity.id} ${hook.name}`;
  const fileOf = (module: TestModule) => path.relative(root, module.moduleId);

  return {
    onHookStart(hook) {
      started.set(keyOf(hook), performance.now());
    },
    onHookEnd(hook) {
      const start = started.get(keyOf(hook));
      if (start === undefined) return;
      started.delete(keyOf(hook));
      const entity = hook.entity;
      const module = entity.type === "module" ? entity : entity.module;
      rows.push({
        kind: hook.name,
        project: entity.project.name,
        file: fileOf(module),
        name: entity.type === "module" ? "(file)" : entity.fullName,
        ms: performance.now() - start,
        // A hook given its own limit is held against the project's, the closer one as a rule.
        limit: entity.project.config.hookTimeout,
      });
    },
    onTestCaseResult(test: TestCase) {
      const diagnostic = test.diagnostic();
      if (!diagnostic || test.result().state !== "passed") return;
      rows.push({
        kind: "test",
        project: test.project.name,
        file: fileOf(test.module),
        name: test.fullName,
        ms: diagnostic.duration,
        limit: test.options.timeout ?? test.project.config.testTimeout,
      });
    },
    onTestRunEnd() {
      if (rows.length === 0) return;
      const projects = [...new Set(rows.map((row) => row.project))].sort().join(",");
      const ratio = (row: Row) => row.limit / Math.max(row.ms, 1);
      rows.sort((a, b) => ratio(a) - ratio(b));
      mkdirSync(path.join(root, "dist/time-limits"), { recursive: true });
      writeFileSync(path.join(root, `dist/time-limits/${projects}.json`), JSON.stringify(rows, null, 1));
      const close = rows.filter((row) => ratio(row) < MARGIN);
      const lines = rows.slice(0, Math.max(SHOWN, close.length)).map((row) => {
        const what = `${row.file} > ${row.kind === "test" ? row.name : `${row.kind} of ${row.name}`}`;
        return `${ratio(row).toFixed(1).padStart(6)}x  ${(row.ms / 1000).toFixed(1).padStart(5)} s of ${row.limit / 1000} s  [${row.project}] ${what}`;
      });
      console.log(
        `\ntime limits: ${close.length} of ${rows.length} tests and hooks within ${MARGIN}x of their limit; the closest:\n${lines.join("\n")}`,
      );
    },
  };
}
