// `npm run dev`: builds the client, applies D1 migrations locally, then runs the client
// build in watch mode beside `wrangler dev` (live reload). Arguments after `--` go to wrangler dev.
import { LOCAL_SERVER_VARS, migrateLocally, runTogether, step, wranglerBin } from "./local-server.mjs";

const passThrough = process.argv.slice(2);

step("dev", "building the client (development)", process.execPath, ["scripts/build-client.mjs", "--dev"]);
migrateLocally("dev", passThrough);
runTogether([
  [process.execPath, ["scripts/build-client.mjs", "--dev", "--watch"]],
  // DEV_SERVER: the CSP lets wrangler's injected reload script run, HTML is not gzipped by wrangler
  // dev (which would hold a streamed page until it ends), and no page comes from the edge cache.
  // NODE_ENV=development: the worker build (wrangler.toml [build]) bundles React's development code.
  [
    wranglerBin,
    ["dev", "--live-reload", "--var", "DEV_SERVER:1", ...LOCAL_SERVER_VARS, ...passThrough],
    { ...process.env, NODE_ENV: "development" },
  ],
]);
