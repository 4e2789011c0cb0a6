// Deleting rows past their time in bounded batches: a product's sweeps, run by the scheduled handler.
import type { ScheduledJob } from "./scheduled";

/** What one sweep deletes: a table's rows past their time. */
export interface Sweep {
  /** The table (a SQL name; code, never input). */
  table: string;
  /**
   * The SQL condition of a row past its time: `?1` is now (Unix seconds), as the run sees it.
   * Code, never input: it goes into the statement as written. An index on what it compares keeps
   * each batch from walking the table.
   */
  expired: string;
  /** Rows deleted per statement (default 500): one statement holds D1 for a short time only. */
  batch?: number;
  /** Statements per run at most (default 20): the rest waits for the next run. */
  maxBatches?: number;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

/**
 * A job that deletes `sweep.table`'s expired rows, `batch` at a time, until a statement deletes
 * fewer than that or `maxBatches` have run. Each statement is short, so the requests D1 serves
 * meanwhile wait for one batch at most. The job's result is how many rows it deleted.
 */
export function sweepJob({ table, expired, batch = 500, maxBatches = 20 }: Sweep): ScheduledJob {
  if (!IDENTIFIER.test(table)) throw new Error(`sweepJob: not a SQL name: ${table}`);
  if (!(Number.isInteger(batch) && batch > 0 && Number.isInteger(maxBatches) && maxBatches > 0)) {
    throw new Error(`sweepJob: batch and maxBatches are positive integers (${table})`);
  }
  const sql = `DELETE FROM ${table} WHERE rowid IN (SELECT rowid FROM ${table} WHERE ${expired} LIMIT ?2)`;
  return {
    name: table,
    async run({ env, now, recordD1 }) {
      const statement = env.DB.prepare(sql);
      let swept = 0;
      for (let run = 0; run < maxBatches; run++) {
        const started = performance.now();
        const { meta } = await statement.bind(now, batch).run();
        recordD1(performance.now() - started);
        swept += meta.changes;
        if (meta.changes < batch) break;
      }
      return swept;
    },
  };
}
