// verge:migrations: the local D1 migrations of `npm run dev` and `npm run preview`. Applied before
// the server answers, skipped when no file changed since they were last applied (wrangler's own
// check costs seconds at every start), and under `vite dev` applied again as soon as a migration
// file is added or saved, so the running server never needs a restart for a new table.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Logger, Plugin } from "vite";
import { localSettings } from "./local.ts";

/** Where the local database's state and the applied migrations' fingerprint live. */
function stateOf(wranglerToml: string, persistTo: string | undefined) {
  const persist = persistTo ?? path.join(path.dirname(wranglerToml), ".wrangler/state");
  return { persist, marker: path.join(persist, "verge-migrations.json"), d1: path.join(persist, "v3/d1") };
}

/** The migration files' names and contents, as one hash: any added or edited file changes it. */
export function fingerprint(dir: string): string {
  const hash = createHash("sha256");
  const files = existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith(".sql")) : [];
  for (const name of files.sort())
    hash
      .update(name)
      .update("\0")
      .update(readFileSync(path.join(dir, name)));
  return hash.digest("hex");
}

/** `wrangler d1 migrations apply DB --local`, its output shown; resolves to whether it succeeded. */
function apply(wranglerToml: string, persistTo: string | undefined, root: string): Promise<boolean> {
  const wrangler = path.join(root, "node_modules/.bin/wrangler");
  const args = ["d1", "migrations", "apply", "DB", "--local", "--config", wranglerToml];
  // No stdin: wrangler then applies local migrations without asking to confirm.
  const child = spawn(wrangler, [...args, ...(persistTo ? ["--persist-to", persistTo] : [])], {
    cwd: root,
    stdio: ["ignore", "inherit", "inherit"],
  });
  return new Promise((done) => {
    child.on("error", () => done(false));
    child.on("close", (code) => done(code === 0));
  });
}

export function migrations(): Plugin {
  let root = process.cwd();
  let logger: Logger | undefined;
  /** One apply at a time: saves in quick succession wait for the one running. */
  let running: Promise<boolean> = Promise.resolve(true);

  /** Applies the app's migrations when their files changed since the last apply. */
  function migrate(reason: string): Promise<boolean> {
    const local = localSettings();
    if (!local?.wranglerConfig) return Promise.resolve(true);
    const toml = local.wranglerConfig;
    if (!readFileSync(toml, "utf8").includes("[[d1_databases]]")) return Promise.resolve(true);
    const dir = path.join(path.dirname(toml), "migrations");
    const state = stateOf(toml, local.persistTo);
    return (running = running.then(async () => {
      const now = fingerprint(dir);
      const marker = existsSync(state.marker) ? readFileSync(state.marker, "utf8") : "";
      if (marker === now && existsSync(state.d1)) return true;
      logger?.info(`[verge] applying D1 migrations to the local database (${reason})`);
      const done = await apply(toml, local.persistTo, root);
      if (done) writeFileSync(state.marker, now);
      return done;
    }));
  }

  async function atStart(): Promise<void> {
    if (await migrate("start")) return;
    throw new Error(
      "Applying the D1 migrations to the local database failed (wrangler's error is above): fix " +
        "the migration, then start again.",
    );
  }

  return {
    name: "verge:migrations",
    apply: (_, env) => env.command === "serve",
    configResolved(config) {
      root = config.root;
      logger = config.logger;
    },
    async configureServer(server) {
      await atStart();
      const toml = localSettings()?.wranglerConfig;
      if (!toml) return;
      const dir = path.join(path.dirname(toml), "migrations");
      server.watcher.add(dir);
      const changed = async (file: string) => {
        if (path.dirname(file) !== dir || !file.endsWith(".sql")) return;
        if (await migrate(`${path.basename(file)} changed`)) return;
        logger?.error(
          `[verge] ${path.basename(file)} was not applied (wrangler's error is above): fix it and ` +
            "save it again, or run `npm run migrate`.",
        );
      };
      server.watcher.on("add", changed);
      server.watcher.on("change", changed);
    },
    configurePreviewServer: atStart,
  };
}
