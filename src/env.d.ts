// Secrets are not in wrangler.toml, so `wrangler types` cannot see them: declared here.
declare namespace Cloudflare {
  interface Env {
    /** Sentry DSN (a secret in production, `--var` or .dev.vars locally). Unset: nothing is reported. */
    SENTRY_DSN?: string;
    /**
     * Seals the D1 bookmarks verge sends (a secret in production: `wrangler secret put`). Unset:
     * a random key per isolate, safe, but a bookmark read by another isolate is then ignored.
     */
    D1_BOOKMARK_SECRET?: string;
    /**
     * Set by `npm run dev` (scripts/dev.mjs) only: the dev server's policies. The CSP lets
     * wrangler's live-reload script run, HTML goes out uncompressed so that wrangler dev streams
     * it (server/headers.ts), and no page is served from the edge cache (server/page-cache.ts).
     */
    DEV_SERVER?: string;
    /**
     * Set by `npm run dev`, `npm run preview` and the tests' servers (scripts/local-server.mjs):
     * the worker runs behind wrangler dev's proxy, so a body it refuses is read and dropped
     * behind the answer instead of cancelled (server/local-body-drain.ts); answers carry
     * Server-Timing (server/timings.ts).
     */
    LOCAL_SERVER?: string;
  }
}
