// `npm run preview`: the app as deployed, on `wrangler dev`, offline and without an account: the
// production client build, the deploy's worker bundle (wrangler.toml [build], production React,
// minified), the edge cache on, answers compressed; no DEV_SERVER, no live reload. D1 is local
// (migrations applied first). Arguments after `--` go to wrangler dev.
import { LOCAL_SERVER_VARS, migrateLocally, runTogether, step, wranglerBin } from "./local-server.mjs";

const passThrough = process.argv.slice(2);
const production = { ...process.env, NODE_ENV: "production" };

step(
  "preview",
  "building the client (production)",
  process.execPath,
  ["scripts/build-client.mjs"],
  production,
);
migrateLocally("preview", passThrough);
runTogether([[wranglerBin, ["dev", ...LOCAL_SERVER_VARS, ...passThrough], production]]);
