// `npm run dev`: builds the client, applies D1 migrations locally, then runs the client
// build in watch mode beside `wrangler dev` (live reload). Arguments after `--` go to wrangler dev.
import { spawn, spawnSync } from "node:child_process";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const bin = (name) => path.join(root, "node_modules/.bin", name);
const passThrough = process.argv.slice(2);

function step(label, command, args) {
  console.log(`[dev] ${label}`);
  // No stdin: wrangler then applies local migrations without asking to confirm.
  const result = spawnSync(command, args, { cwd: root, stdio: ["ignore", "inherit", "inherit"] });
  if (result.status !== 0) {
    console.error(`[dev] failed: ${label}. Fix the error above and run \`npm run dev\` again.`);
    process.exit(result.status ?? 1);
  }
}

step("building the client (development)", process.execPath, ["scripts/build-client.mjs", "--dev"]);
step("applying D1 migrations to the local database", bin("wrangler"), [
  "d1",
  "migrations",
  "apply",
  "DB",
  "--local",
]);

const children = [
  spawn(process.execPath, ["scripts/build-client.mjs", "--dev", "--watch"], { cwd: root, stdio: "inherit" }),
  // DEV_SERVER: the CSP lets wrangler's injected reload script run, HTML is not gzipped by wrangler
  // dev (which would hold a streamed page until it ends), and no page comes from the edge cache.
  // NODE_ENV=development: the worker build (wrangler.toml [build]) bundles React's development code.
  spawn(bin("wrangler"), ["dev", "--live-reload", "--var", "DEV_SERVER:1", ...passThrough], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, NODE_ENV: "development" },
  }),
];
let exiting = false;
const stop = (code) => {
  if (exiting) return;
  exiting = true;
  for (const child of children) child.kill("SIGTERM");
  process.exitCode = code;
};
for (const child of children) child.on("exit", (code) => stop(code ?? 0));
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => stop(0));
