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
     * Signs the moderation webhook's requests (POST /hooks/moderation; a secret in production:
     * `wrangler secret put`). Unset or shorter than 32 bytes: the webhook refuses every request.
     */
    MODERATION_SECRET?: string;
  }
}

// The worker's client manifest, which verge/vite makes from the client build (src/vite/).
declare module "virtual:verge/manifest" {
  const manifest: import("./server/manifest").ClientManifest;
  export default manifest;
}

// React's server build verge/vite resolves `react-dom/server` to (src/vite/renderer.ts).
declare module "virtual:verge/renderer" {
  const renderer: "node" | "edge";
  export default renderer;
}
