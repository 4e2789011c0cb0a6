// Work that runs without a request: the Worker's `scheduled` handler (a cron trigger), which runs
// the product's jobs and is instrumented like `fetch`: one JSON log line per run, and for each
// failure a digest on that line and a report through the same hook.
import { describeThrown, digestOf, UNDESCRIBABLE } from "./capture";
import type { CapturedError, ErrorReport, ReportError } from "./context";
import type { ClientManifest } from "./manifest";

/** What a job is handed: the run's cron and clock, the Worker's bindings. */
export interface ScheduledRun {
  /** The cron expression that fired (wrangler.toml `[triggers]`), "" when triggered by hand. */
  cron: string;
  /** When the run was due, Unix seconds: every job compares expiries to this one clock. */
  now: number;
  env: Env;
  waitUntil(promise: Promise<unknown>): void;
  /** Adds one D1 statement's time to the run's `d1` timing and its count to `d1_queries`. */
  recordD1(ms: number): void;
}

/** One piece of the run's work, named on its log line; what it returns (rows it swept) is logged under `swept`. */
export interface ScheduledJob {
  name: string;
  run(run: ScheduledRun): Promise<number>;
}

export interface ScheduledDeps {
  /** The product's jobs, run one after another; one that fails does not stop the others. */
  jobs: readonly ScheduledJob[];
  /** The client build's id: the release a report belongs to, and `build` on a line with errors. */
  manifest: Pick<ClientManifest, "build">;
  /** Sends an error to the error-reporting service (the hook `createApp` takes). */
  reportError: ReportError;
  /** Writes one log line (defaults to console.log, stdout in workerd). */
  log?: (line: string) => void;
}

/** A scheduled run's log line (`kind: "scheduled"`), beside the requests' lines (logger.ts). */
export interface ScheduledLogLine {
  ts: string;
  level: "info" | "error";
  kind: "scheduled";
  cron: string;
  ms: number;
  /** The run's id: a report's `ray` tag, as a request's ray is. */
  ray: string;
  /** Each job that finished, by name: what it returned (rows swept). A failed job is missing. */
  swept: Record<string, number>;
  /** Each job's [start, ms] from the run's start (`job:<name>`), and D1's ([first start, total ms]). */
  timings: Record<string, [number, number]>;
  d1_queries: number;
  digest?: string;
  message?: string;
  stack?: string;
  build?: string;
  errors?: CapturedError[];
}

const stdout = (line: string) => console.log(line);
const round = (ms: number) => Math.round(ms * 10) / 10;

/** The `scheduled` handler of a Worker's default export, running `jobs` on each cron. */
export function createScheduled({ jobs, manifest, reportError, log = stdout }: ScheduledDeps) {
  return async function scheduled(controller: ScheduledController, env: Env, ctx: ExecutionContext) {
    const start = performance.now();
    const since = () => performance.now() - start;
    const ray = crypto.randomUUID().replaceAll("-", "").slice(0, 16);
    const cron = controller.cron ?? "";
    const swept: Record<string, number> = {};
    const timings: Record<string, [number, number]> = {};
    const errors: CapturedError[] = [];
    let d1: [number, number] | null = null;
    let queries = 0;
    const waitUntil = (promise: Promise<unknown>) => ctx.waitUntil(promise);
    const run: ScheduledRun = {
      cron,
      now: Math.floor(controller.scheduledTime / 1000),
      env,
      waitUntil,
      recordD1(ms) {
        queries++;
        if (d1) d1[1] += ms;
        else d1 = [since() - ms, ms];
      },
    };
    const capture = (error: unknown, route: string) => {
      let entry: CapturedError = { digest: UNDESCRIBABLE, message: "An error that could not be captured" };
      try {
        const described = describeThrown(error);
        entry = { digest: digestOf(described, ray), message: described.message, stack: described.stack };
        const report: ErrorReport = {
          error,
          digest: entry.digest,
          route,
          ray,
          cron,
          env,
          release: manifest.build,
        };
        waitUntil(
          Promise.resolve()
            .then(() => reportError(report))
            .catch((failure: unknown) => console.error("reportError failed", failure)),
        );
      } catch (failure) {
        console.error("capturing an error failed", failure);
      }
      errors.push(entry);
    };

    for (const job of jobs) {
      const at = since();
      try {
        swept[job.name] = await job.run(run);
      } catch (error) {
        capture(error, `scheduled:${job.name}`);
      } finally {
        timings[`job:${job.name}`] = [round(at), round(since() - at)];
      }
    }

    if (d1) timings.d1 = [round(d1[0]), round(d1[1])];
    const [first, ...later] = errors;
    const line: ScheduledLogLine = {
      ts: new Date().toISOString(),
      level: first ? "error" : "info",
      kind: "scheduled",
      cron,
      ms: round(since()),
      ray,
      swept,
      timings,
      d1_queries: queries,
      ...first,
      ...(first ? { build: manifest.build } : {}),
      ...(later.length > 0 ? { errors: later } : {}),
    };
    log(JSON.stringify(line));
  };
}
