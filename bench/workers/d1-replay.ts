// `bench:loop -- --d1-apart`: what a call's D1 statements cost alone. Local D1 runs in the
// Worker's own process (a Durable Object and SQLite beside it), so the process CPU of a call
// counts D1's side of each query too, which on Cloudflare runs elsewhere. A recording of one
// call's statements, replayed by themselves, measures that share, to be left out of the call's.
// `--d1-memory` goes further: every call is answered from the recording, in the isolate, so the
// process's CPU is the Worker's own (and a V8 profile of it is not D1's time on random frames).

/** One D1 call as the app made it: a statement run by `method`, or a batch of statements; its answer. */
export type Recorded = (
  { sql: string; args: unknown[]; method: Method } | { batch: { sql: string; args: unknown[] }[] }
) & { answer?: Promise<unknown> };

/** How a statement is run. */
const METHODS = ["first", "all", "run", "raw"] as const;
type Method = (typeof METHODS)[number];

const SOURCE = Symbol("recorded statement");
type Tagged = D1PreparedStatement & { [SOURCE]: { sql: string; args: unknown[] } };

function recordingStatement(statement: D1PreparedStatement, sql: string, args: unknown[], log: Recorded[]) {
  const tagged = new Proxy(statement, {
    get(target, name) {
      if (name === SOURCE) return { sql, args };
      if (name === "bind")
        return (...bound: unknown[]) => recordingStatement(target.bind(...bound), sql, bound, log);
      const method = METHODS.find((known) => known === name);
      if (method)
        return (...rest: never[]) => {
          const answer = (target[method] as (...a: never[]) => Promise<unknown>)(...rest);
          log.push({ sql, args, method, answer });
          return answer;
        };
      const value = Reflect.get(target, name);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return tagged as Tagged;
}

/** A D1 database (or a session of one) that logs each call it runs into `log`. */
function recordingDb<T extends D1Database | D1DatabaseSession>(db: T, log: Recorded[]): T {
  return new Proxy(db, {
    get(target, name) {
      if (name === "prepare") return (sql: string) => recordingStatement(target.prepare(sql), sql, [], log);
      if (name === "batch")
        return (statements: Tagged[]) => {
          const answer = target.batch(statements);
          log.push({ batch: statements.map((statement) => statement[SOURCE]), answer });
          return answer;
        };
      if (name === "withSession")
        return (constraint?: string) => recordingDb((target as D1Database).withSession(constraint), log);
      const value = Reflect.get(target, name);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** `env` whose D1 binding records every call into `log`. */
export function recordingEnv(env: Env, log: Recorded[]): Env {
  return { ...env, DB: recordingDb(env.DB, log) };
}

/** Runs the recorded calls again, one after another, straight on `db`. */
export async function replay(db: D1Database, log: Recorded[]): Promise<void> {
  for (const call of log) {
    if ("batch" in call) await db.batch(call.batch.map(({ sql, args }) => db.prepare(sql).bind(...args)));
    else {
      const statement = db.prepare(call.sql).bind(...call.args);
      await (call.method === "first" ? statement.first() : statement[call.method]());
    }
  }
}

/**
 * What tells one call from another: its statement(s), and how a statement is run. Not its
 * arguments: a session's read binds the time, in seconds, so the same call differs from second to second.
 */
const callKey = (call: Recorded) =>
  JSON.stringify("batch" in call ? call.batch.map(({ sql }) => sql) : [call.sql, call.method]);

/**
 * `env` whose D1 answers each call from `log` (recorded with `recordingEnv`, its answers settled),
 * in the isolate: a fresh copy of the recorded answer to the same statement each time. A call the
 * recording does not have is an error, so the benchmark cannot time a path it did not record.
 */
export async function answeringEnv(env: Env, log: Recorded[]): Promise<Env> {
  const answers = new Map<string, unknown>();
  for (const call of log) answers.set(callKey(call), await call.answer);
  const answer = (call: Recorded) => {
    const key = callKey(call);
    if (!answers.has(key)) throw new Error(`d1=memory: a D1 call the recording does not have: ${key}`);
    return Promise.resolve(structuredClone(answers.get(key)));
  };
  const statement = (sql: string, args: unknown[]): D1PreparedStatement =>
    ({
      [SOURCE]: { sql, args },
      bind: (...bound: unknown[]) => statement(sql, bound),
      ...Object.fromEntries(METHODS.map((method) => [method, () => answer({ sql, args, method })])),
    }) as unknown as D1PreparedStatement;
  const db = {
    prepare: (sql: string) => statement(sql, []),
    batch: (statements: Tagged[]) => answer({ batch: statements.map((s) => s[SOURCE]) }),
    withSession: () => db,
    getBookmark: () => null,
  };
  return { ...env, DB: db as unknown as D1Database };
}
