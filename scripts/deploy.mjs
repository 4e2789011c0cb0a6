// `npm run deploy`: Sentry's recipe for Workers. Builds (`vite build`: the client into dist/client/,
// the worker into dist/verge/index.js, both bundles and their maps kept in dist/sourcemaps/<build>/),
// checks every bundle carries its debug ID (the build appends them; sentry-cli must read them back)
// and that the worker wrangler will upload is the one kept, uploads the build's bundles and maps to
// Sentry (release = build id) when SENTRY_AUTH_TOKEN, SENTRY_ORG and SENTRY_PROJECT are set, then
// deploys with wrangler, which reads dist/verge/wrangler.json through the Cloudflare plugin's
// redirect (.wrangler/deploy/config.json).
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
const vite = path.join(root, "node_modules/vite/bin/vite.js");
const { values } = parseArgs({ options: { "dry-run": { type: "boolean", default: false } } });
const dryRun = values["dry-run"];
const STEPS = 5;
const step = (n, label) => console.log(`[deploy] ${n}/${STEPS} ${label}`);
const relative = (file) => path.relative(root, file);

function fail(message) {
  console.error(`[deploy] failed: ${message}`);
  process.exit(1);
}

/** Runs a command in the project root, its output shown; everything is built for production. */
function run(command, args) {
  const env = { ...process.env, NODE_ENV: "production" };
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env });
  if (result.status !== 0) fail(`${path.basename(command)} ${args.join(" ")} (exit code ${result.status})`);
}

/** A JSON file the build wrote, or a failure saying which is missing. */
async function readJson(file) {
  try {
    return JSON.parse(await readFile(file, "utf8"));
  } catch (error) {
    fail(`${relative(file)}: ${error.message} (the build did not write it)`);
  }
}

step(1, "building the client and the worker (vite build, production)");
run(process.execPath, [vite, "build"]);
const { build } = (await readJson(path.join(root, "dist/client-build.json"))).manifest;
const maps = buildMapsDir(path.join(root, "dist"), build);

step(2, `checking that wrangler deploys the worker kept in ${relative(maps)}/`);
// What `wrangler deploy` reads: the redirect the Cloudflare plugin wrote, to the built worker's config.
const redirect = path.join(root, ".wrangler/deploy/config.json");
const config = path.resolve(path.dirname(redirect), (await readJson(redirect)).configPath ?? "");
const worker = path.resolve(path.dirname(config), (await readJson(config)).main ?? "");
if (worker !== path.join(root, "dist/verge/index.js")) {
  fail(`${relative(redirect)} leads wrangler to ${relative(worker)}, not to the built dist/verge/index.js`);
}
const kept = await readFile(path.join(maps, "index.js"), "utf8").catch(() => "");
if ((await readFile(worker, "utf8")) !== kept) {
  fail(`dist/verge/index.js is not the worker kept in ${relative(maps)}/`);
}

step(3, `checking the debug IDs the build appended (build ${build})`);
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
  step(4, `uploading ${relative(maps)}/ to Sentry (release ${build})`);
  try {
    await uploadSourceMaps(maps, build);
  } catch (error) {
    fail(error.message);
  }
}

// The worker checked and uploaded above, as it is: the built config says no_bundle.
if (dryRun) {
  step(5, "deploying dist/verge/index.js: dry run");
  run(wrangler, ["deploy", "--dry-run"]);
  console.log("[deploy] dry run done: nothing was uploaded or deployed");
} else {
  step(5, "applying D1 migrations to the remote database, then deploying dist/verge/index.js");
  run(wrangler, ["d1", "migrations", "apply", "DB", "--remote"]);
  run(wrangler, ["deploy"]);
  console.log(`[deploy] deployed build ${build}`);
}
