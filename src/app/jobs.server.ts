// The product's work without a request (the cron in wrangler.toml): sweeping rows past their time.
// One entry per table; a table that keeps rows for a while (security events, say) adds its own.
import { sweepJob, type ScheduledJob } from "verge/server";

export const jobs: readonly ScheduledJob[] = [
  // Expired, by idle time or by the absolute limit (never later than it: the table's CHECK).
  sweepJob({ table: "sessions", expired: "expires_at <= ?1" }),
  // A ceremony's challenge outlives its few minutes only if no one came back to take it.
  sweepJob({ table: "webauthn_challenges", expired: "expires_at <= ?1" }),
];
