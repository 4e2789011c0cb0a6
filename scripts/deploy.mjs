// `npm run deploy`: Sentry's recipe for Workers. Builds, bundles the worker as wrangler deploys it
// into dist/deploy/, checks every bundle carries its debug ID (the builds inject them; sentry-cli
// must read them back), uploads the build's bundles and maps to Sentry (release = build id) when
// SENTRY_AUTH_TOKEN, SENTRY_ORG and SENTRY_PROJECT are set, then deploys that same bundle.
//   npm run deploy
//   npm run check:deploy   (--dry-run) all but the upload, the migrations and the deploy: offline
import { spawnSync } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { buildMapsDir } from "./build-maps.mjs";
import { checkDebugIds, SENTRY_VARIABLES, uploadSourceMaps } from "./sentry-maps.mjs";

const root = path.resolve(import.meta.dirname, "..");
const wrangler = path.join(root, "node_modules/.bin/wrangler");
const { values } = parseArgs({ options: { "dry-run": { type: "boolean", default: false } } });
const dryRun = values["dry-run"];
const STEPS = 5;
const step = (n, label) => console.log(`[deploy] ${n}/${STEPS} ${label}`);

function fail(message) {
  console.error(`[deploy] failed: ${message}`);
  process.exit(1);
}

/** Runs a command in the project root, its output shown; the worker is always built for production. */
function run(command, args) {
  const env = { ...process.env, NODE_ENV: "production" };
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env });
  if (result.status !== 0) fail(`${path.basename(command)} ${args.join(" ")} (exit code ${result.status})`);
}

step(1, "building the client (production)");
run(process.execPath, ["scripts/build-client.mjs"]);
const { build } = JSON.parse(await readFile(path.join(root, "dist/manifest.json"), "utf8"));
const bundle = path.join(root, "dist/deploy/worker.js");
step(2, "bundling the worker as wrangler deploys it, into dist/deploy/");
run(wrangler, ["deploy", "--dry-run", "--outdir", path.dirname(bundle)]);

step(3, `checking the debug IDs the builds injected (build ${build})`);
const maps = buildMapsDir(path.join(root, "dist"), build);
const kept = await readFile(path.join(maps, "worker.js"), "utf8").catch(() => "");
if ((await readFile(bundle, "utf8")) !== kept) {
  fail(`dist/deploy/worker.js is not the worker kept in ${path.relative(root, maps)}/`);
}
try {
  const ids = await checkDebugIds(maps);
  console.log(
    `[deploy]     ${ids.size} bundles carry their debug ID, as do their maps and as sentry-cli reads them`,
  );
} catch (error) {
  fail(error.message);
}

const missing = SENTRY_VARIABLES.filter((name) => !process.env[name]);
if (dryRun) {
  step(4, "uploading source maps to Sentry: skipped (dry run)");
} else if (missing.length > 0) {
  const names = `${SENTRY_VARIABLES.slice(0, -1).join(", ")} and ${SENTRY_VARIABLES.at(-1)}`;
  step(
    4,
    `uploading source maps to Sentry: skipped, ${missing.join(", ")} not set ` +
      `(with ${names} set, Sentry shows events' stacks in the sources)`,
  );
} else {
  step(4, `uploading ${path.relative(root, maps)}/ to Sentry (release ${build})`);
  try {
    await uploadSourceMaps(maps, build);
  } catch (error) {
    fail(error.message);
  }
}

// The bundle checked and uploaded above, as it is. wrangler.toml's [build] still runs: it rebuilds
// dist/worker/ (identically), which is not what goes up.
const deploy = ["deploy", bundle, "--config", "wrangler.toml", "--no-bundle"];
if (dryRun) {
  step(5, "deploying dist/deploy/worker.js: dry run");
  run(wrangler, [...deploy, "--dry-run"]);
  console.log("[deploy] dry run done: nothing was uploaded or deployed");
} else {
  step(5, `applying D1 migrations to the remote database, then deploying dist/deploy/worker.js`);
  run(wrangler, ["d1", "migrations", "apply", "DB", "--remote"]);
  run(wrangler, deploy);
  console.log(`[deploy] deployed build ${build}`);
}
