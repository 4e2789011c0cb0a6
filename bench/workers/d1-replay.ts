// `bench:loop -- --d1-apart`: what a call's D1 statements cost alone. Local D1 runs in the
// Worker's own process (a Durable Object and SQLite beside it), so the process CPU of a call
// counts D1's side of each query too, which on Cloudflare runs elsewhere. A recording of one
// call's statements, replayed by themselves, measures that share, to be left out of the call's.

/** One D1 call as the app made it: a statement run by `method`, or a batch of statements. */
export type Recorded =
  | { sql: string; args: unknown[]; method: "first" | "all" | "run" | "raw" }
  | { batch: { sql: string; args: unknown[] }[] };

const SOURCE = Symbol("recorded statement");
type Tagged = D1PreparedStatement & { [SOURCE]: { sql: string; args: unknown[] } };

function recordingStatement(statement: D1PreparedStatement, sql: string, args: unknown[], log: Recorded[]) {
  const tagged = new Proxy(statement, {
    get(target, name) {
      if (name === SOURCE) return { sql, args };
      if (name === "bind")
        return (...bound: unknown[]) => recordingStatement(target.bind(...bound), sql, bound, log);
      if (name === "first" || name === "all" || name === "run" || name === "raw")
        return (...rest: never[]) => {
          log.push({ sql, args, method: name });
          return (target[name] as (...a: never[]) => unknown)(...rest);
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
          log.push({ batch: statements.map((statement) => statement[SOURCE]) });
          return target.batch(statements);
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
