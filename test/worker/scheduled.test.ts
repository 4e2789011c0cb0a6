// The scheduled sweep: the cron's run deletes rows past their time and keeps live ones, a batch at
// a time up to its bound, and writes one log line; a failing job is logged with a digest and reported.
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from "vitest";
import worker from "../../src/worker";
import { createScheduled, type ScheduledJob } from "../../src/server/scheduled";
import { sweepJob } from "../../src/server/sweep";
import type { ErrorReport } from "../../src/server/context";
import { createSentryReporter } from "../../src/server/sentry-reporter";
import { eventOf } from "../support/envelope";
import { newAccount } from "./session-support";
import { dsnFor, received } from "./relay-support";

const CRON = "17 * * * *";
/** The run's clock: every expiry below is relative to it (Unix seconds). */
const NOW = 1_900_000_000;

async function addSession(id: string, accountId: string, expiresAt: number, absoluteExpiresAt = expiresAt) {
  await env.DB.prepare(
    "INSERT INTO sessions (id, account_id, created_at, expires_at, absolute_expires_at) VALUES (?, ?, ?, ?, ?)",
  )
    .bind(id, accountId, NOW - 100_000, expiresAt, absoluteExpiresAt)
    .run();
}

/** `count` challenges named `<prefix>-<n>`, all expiring at `expiresAt`, in one statement. */
async function addChallenges(prefix: string, count: number, expiresAt: number) {
  await env.DB.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?2)
     INSERT INTO webauthn_challenges (attempt_id, kind, challenge, expires_at)
     SELECT ?1 || '-' || i, 'authenticate', 'c', ?3 FROM n`,
  )
    .bind(prefix, count, expiresAt)
    .run();
}

/** A security event of `account`'s, `daysAgo` before the run. */
async function addEvent(accountId: string, daysAgo: number, detail: string) {
  await env.DB.prepare(
    "INSERT INTO security_events (account_id, kind, at, detail) VALUES (?, 'session-started', ?, ?)",
  )
    .bind(accountId, NOW - daysAgo * 86_400, detail)
    .run();
}

const ids = async (table: string, column: string, like: string) =>
  (
    await env.DB.prepare(`SELECT ${column} AS id FROM ${table} WHERE ${column} LIKE ? ORDER BY 1`)
      .bind(like)
      .all<{ id: string }>()
  ).results.map((row) => row.id);

/** Runs `handler` as the cron would, and waits for what it left in waitUntil. */
async function runAt(
  handler: (controller: ScheduledController, env: Env, ctx: ExecutionContext) => Promise<void>,
) {
  const ctx = createExecutionContext();
  await handler(createScheduledController({ scheduledTime: NOW * 1000, cron: CRON }), env, ctx);
  await waitOnExecutionContext(ctx);
}

let stdout: MockInstance<typeof console.log>;
beforeEach(() => {
  stdout = vi.spyOn(console, "log").mockImplementation(() => {});
});
afterEach(() => stdout.mockRestore());

/** The scheduled lines written to stdout so far. */
const scheduledLines = () =>
  stdout.mock.calls
    .map(([text]) => {
      try {
        return JSON.parse(String(text)) as Record<string, any>;
      } catch {
        return null;
      }
    })
    .filter((line) => line?.kind === "scheduled") as Record<string, any>[];

describe("the worker's scheduled handler", () => {
  it("deletes expired sessions, challenges and old events, keeps live ones, and logs the run", async () => {
    const account = await newAccount("Sweep tester");
    await addSession("sweep-idle", account, NOW - 1, NOW + 1000);
    await addSession("sweep-absolute", account, NOW, NOW);
    await addSession("sweep-live", account, NOW + 1, NOW + 1000);
    // More than one batch (500): the sweep goes on until a batch comes back short.
    await addChallenges("sweep-old", 1_203, NOW - 60);
    await addChallenges("sweep-live", 2, NOW + 60);
    // Past the 90 days the account page shows, and within them.
    await addEvent(account, 91, "sweep-old");
    await addEvent(account, 89, "sweep-recent");

    await runAt(worker.scheduled);

    expect(await ids("sessions", "id", "sweep-%")).toEqual(["sweep-live"]);
    expect(await ids("webauthn_challenges", "attempt_id", "sweep-%")).toEqual([
      "sweep-live-1",
      "sweep-live-2",
    ]);
    expect(await ids("security_events", "detail", "sweep-%")).toEqual(["sweep-recent"]);
    const [line, ...more] = scheduledLines();
    expect(more).toEqual([]);
    expect(line).toMatchObject({
      level: "info",
      kind: "scheduled",
      cron: CRON,
      swept: { sessions: 2, webauthn_challenges: 1_203, security_events: 1 },
      // One statement for the sessions, three batches of challenges (500, 500, 203), one for events.
      d1_queries: 5,
    });
    expect(line).not.toHaveProperty("digest");
    expect(typeof line!.ms).toBe("number");
    expect(Object.keys(line!.timings)).toEqual(
      expect.arrayContaining(["job:sessions", "job:webauthn_challenges", "job:security_events", "d1"]),
    );
  });

  it("runs through the Worker's default export, as a cron trigger calls it", async () => {
    const account = await newAccount("Cron tester");
    await addSession("cron-dead", account, 1, 2);
    // The generated type of the loopback export names fetch only; workerd's has scheduled too.
    const self = exports.default as unknown as {
      scheduled(options: { cron: string; scheduledTime: number }): Promise<unknown>;
    };
    await self.scheduled({ cron: CRON, scheduledTime: NOW * 1000 });
    expect(scheduledLines()).toEqual([
      expect.objectContaining({ cron: CRON, swept: expect.objectContaining({ sessions: 1 }) }),
    ]);
    expect(await ids("sessions", "id", "cron-%")).toEqual([]);
  });
});

describe("a sweep's bound", () => {
  it("stops after maxBatches statements of `batch` rows; the next run takes the rest", async () => {
    await addChallenges("bound", 5, NOW - 1);
    const jobs = [
      sweepJob({ table: "webauthn_challenges", expired: "expires_at <= ?1", batch: 2, maxBatches: 2 }),
    ];
    const lines: Record<string, any>[] = [];
    const scheduled = createScheduled({
      jobs,
      manifest: { build: "test" },
      reportError: () => {},
      log: (line) => void lines.push(JSON.parse(line)),
    });

    await runAt(scheduled);
    expect(await ids("webauthn_challenges", "attempt_id", "bound-%")).toHaveLength(1);
    expect(lines[0]).toMatchObject({ swept: { webauthn_challenges: 4 }, d1_queries: 2 });

    await runAt(scheduled);
    expect(await ids("webauthn_challenges", "attempt_id", "bound-%")).toEqual([]);
    expect(lines[1]).toMatchObject({ swept: { webauthn_challenges: 1 }, d1_queries: 1 });
  });
});

describe("a failing job", () => {
  it("is logged with a digest and reported, and the other jobs still run", async () => {
    const account = await newAccount("Failure tester");
    await addSession("failing-dead", account, NOW - 1);
    const reports: ErrorReport[] = [];
    const lines: Record<string, any>[] = [];
    const broken: ScheduledJob = {
      name: "broken",
      run: async () => {
        throw new Error("the sweep broke");
      },
    };
    const scheduled = createScheduled({
      // A table that does not exist fails in D1 itself; a job that throws fails in the product's code.
      jobs: [
        sweepJob({ table: "no_such_table", expired: "1" }),
        broken,
        sweepJob({ table: "sessions", expired: "expires_at <= ?1" }),
      ],
      manifest: { build: "build-1" },
      reportError: (report) => void reports.push(report),
      log: (line) => void lines.push(JSON.parse(line)),
    });

    await runAt(scheduled);

    expect(await ids("sessions", "id", "failing-%")).toEqual([]);
    expect(lines).toHaveLength(1);
    const [line] = lines;
    expect(line).toMatchObject({ level: "error", kind: "scheduled", cron: CRON, build: "build-1" });
    expect(line!.swept).toEqual({ sessions: expect.any(Number) });
    expect(line!.digest).toMatch(/^[0-9a-z]{8,16}$/);
    expect(line!.message).toMatch(/no such table/);
    expect(line!.errors).toEqual([expect.objectContaining({ message: "the sweep broke" })]);
    // Each failure reported once, under the digest its line shows, with the run's cron and id.
    expect(reports.map((report) => report.digest)).toEqual([line!.digest, line!.errors[0].digest]);
    expect(reports[1]).toMatchObject({
      cron: CRON,
      ray: line!.ray,
      route: "scheduled:broken",
      release: "build-1",
    });
    expect(reports[1]!.error).toBeInstanceOf(Error);
    expect(reports[1]!.request).toBeUndefined();
  });
});

describe("a failing job with Sentry configured", () => {
  it("sends one event, tagged with the line's digest, the run's ray and the cron", async () => {
    const project = 3361;
    const lines: Record<string, any>[] = [];
    const scheduled = createScheduled({
      jobs: [sweepJob({ table: "no_such_table", expired: "1" })],
      manifest: { build: "build-2" },
      reportError: createSentryReporter(),
      log: (line) => void lines.push(JSON.parse(line)),
    });
    const ctx = createExecutionContext();
    const controller = createScheduledController({ scheduledTime: NOW * 1000, cron: CRON });
    await scheduled(controller, { ...env, SENTRY_DSN: dsnFor(project) }, ctx);
    await waitOnExecutionContext(ctx);

    const [line] = lines;
    const events = (await received(project)).map(eventOf);
    expect(events).toHaveLength(1);
    const event = events[0]!;
    expect(event.tags).toEqual({
      digest: line!.digest,
      ray: line!.ray,
      cron: CRON,
      route: "scheduled:no_such_table",
    });
    expect(event.release).toBe("build-2");
    expect(event.exception.values[0].value).toMatch(/no such table/);
  });
});
