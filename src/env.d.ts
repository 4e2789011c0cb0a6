// Secrets are not in wrangler.toml, so `wrangler types` cannot see them: declared here.
declare namespace Cloudflare {
  interface Env {
    /** Sentry DSN (a secret in production, `--var` or .dev.vars locally). Unset: nothing is reported. */
    SENTRY_DSN?: string;
    /** Set by `npm run dev` (scripts/dev.mjs) only: the CSP then lets wrangler's live-reload script run. */
    DEV_LIVE_RELOAD?: string;
    /** Set by `npm run dev` only: HTML goes out uncompressed, so wrangler dev streams it (server/headers.ts). */
    DEV_UNCOMPRESSED?: string;
  }
}
