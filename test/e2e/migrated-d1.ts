// Local D1 with the app's migrations applied, for the browser tests' servers: made once per set of
// migration files and kept, then copied into each server's fresh local state. Applying them
// (wrangler, one run per migration file) was about 2 s of each server's start; with the copy,
// verge's plugin finds the migrations' fingerprint there and applies nothing (src/vite/migrations.ts).
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { cp, mkdir, mkdtemp, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { fingerprint } from "../../src/vite/migrations.ts";

const root = path.resolve(import.meta.dirname, "../..");
/** Kept between runs, and gone with node_modules (a fresh clone makes it once). */
const KEPT = path.join(root, "node_modules/.cache/verge-e2e");

/** The kept state for this project's migrations, wrangler.toml and wrangler version. */
async function keptState(): Promise<string> {
  const migrations = fingerprint(path.join(root, "migrations"));
  const wrangler = await readFile(path.join(root, "node_modules/wrangler/package.json"), "utf8");
  const toml = await readFile(path.join(root, "wrangler.toml"), "utf8");
  const key = createHash("sha256").update(migrations).update(wrangler).update(toml).digest("hex");
  const kept = path.join(KEPT, `d1-${key.slice(0, 16)}`);
  if (existsSync(kept)) return kept;
  await mkdir(KEPT, { recursive: true });
  const fresh = await mkdtemp(path.join(KEPT, "making-"));
  await applyMigrations(fresh);
  // The fingerprint verge's plugin compares with the migration files before applying them.
  await writeFile(path.join(fresh, "verge-migrations.json"), migrations);
  // Whole or not at all: a run stopped halfway leaves a `making-` folder, never a kept one.
  await rename(fresh, kept).catch(async (error: NodeJS.ErrnoException) => {
    await rm(fresh, { recursive: true, force: true });
    // Another run kept the same state meanwhile.
    if (!existsSync(kept)) throw error;
  });
  return kept;
}

/** `wrangler d1 migrations apply DB --local` into `persistTo`; throws with its output when it fails. */
function applyMigrations(persistTo: string): Promise<void> {
  const args = ["d1", "migrations", "apply", "DB", "--local", "--persist-to", persistTo];
  const child = spawn(path.join(root, "node_modules/.bin/wrangler"), args, {
    cwd: root,
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  for (const stream of [child.stdout, child.stderr]) stream.on("data", (chunk) => (output += chunk));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve() : reject(new Error(`wrangler d1 migrations apply failed (${code}):\n${output}`)),
    );
  });
}

let kept: Promise<string> | undefined;

/** Fills `persistTo` (a server's local state, not yet used) with the migrated local D1. */
export async function seedMigratedD1(persistTo: string): Promise<void> {
  kept ??= keptState();
  await cp(await kept, persistTo, { recursive: true });
}
