// What `npm run dev` and `npm run preview` pass the local worker, as `wrangler dev` took them:
// `--var NAME:VALUE` and `--persist-to DIR` (scripts/serve.mjs puts them in VERGE_LOCAL). Never
// part of a build: a deploy's settings come from wrangler.toml and its secrets alone.

import type { PluginConfig } from "@cloudflare/vite-plugin";

/** What scripts/serve.mjs hands Vite's process. */
export interface LocalSettings {
  vars: Record<string, string>;
  persistTo?: string;
  inspectorPort?: number;
  /** The app's wrangler.toml: its D1 migrations are applied locally (verge:migrations). */
  wranglerConfig?: string;
}

export function localSettings(): LocalSettings | undefined {
  const given = process.env.VERGE_LOCAL;
  return given ? (JSON.parse(given) as LocalSettings) : undefined;
}

/**
 * The Cloudflare plugin's options for the local worker (`cloudflare(localVars())`): the vars
 * given to `npm run dev` on top of wrangler.toml's, and where local state (D1) lives.
 */
export function localVars(options: PluginConfig = {}): PluginConfig {
  const local = localSettings();
  if (!local) return options;
  return {
    ...options,
    ...(local.persistTo ? { persistState: { path: local.persistTo } } : {}),
    ...(local.inspectorPort === undefined ? {} : { inspectorPort: local.inspectorPort }),
    config: (config) => ({ vars: { ...config.vars, ...local.vars } }),
  };
}
