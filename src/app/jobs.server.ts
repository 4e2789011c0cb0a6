// The product's work without a request (the cron in wrangler.toml): sweeping rows past their time.
// One entry per table.
import { sweepJob, type ScheduledJob } from "verge/server";
import { SECURITY_EVENT_KEEP_S } from "./db/account-security.server";

export const jobs: readonly ScheduledJob[] = [
  // Expired, by idle time or by the absolute limit (never later than it: the table's CHECK).
  sweepJob({ table: "sessions", expired: "expires_at <= ?1" }),
  // A ceremony's challenge outlives its few minutes only if no one came back to take it.
  sweepJob({ table: "webauthn_challenges", expired: "expires_at <= ?1" }),
  // Past what /account shows (its last 90 days), an event is kept no longer.
  sweepJob({ table: "security_events", expired: `at < ?1 - ${SECURITY_EVENT_KEEP_S}` }),
];
