// `npm run dev`: builds the client, applies D1 migrations locally, then runs the client build in
// watch mode beside `wrangler dev`, with React Fast Refresh: the page follows each rebuild in place
// through an event channel of its own (scripts/dev-events.mjs, scripts/fast-refresh.mjs), once the
// worker serves that build (scripts/dev-live.mjs), and refetches its data when the worker was
// rebuilt. Arguments after `--` go to wrangler dev.
import { readFileSync, watch } from "node:fs";
import path from "node:path";
import { startDevEvents } from "./dev-events.mjs";
import { liveBuilds } from "./dev-live.mjs";
import {
  freePort,
  LOCAL_SERVER_VARS,
  migrateLocally,
  runTogether,
  step,
  wranglerBin,
} from "./local-server.mjs";

const passThrough = process.argv.slice(2);
const events = await startDevEvents(await freePort());
const clientBuild = ["scripts/build-client.mjs", "--dev", "--dev-events", events.url];

// After a save, wrangler reloads the worker (once or twice: the source, then the client's new
// manifest), and the page then refetches its data (a loader may have changed), unless the client
// build changed the page itself (a refresh, a stylesheet, a reload): refetched data carries new
// form keys, which would remount its forms and lose what was typed. When the saved file is one the
// client build reads, the decision waits for that build; a loader's edit changes no client output.
const root = path.resolve(import.meta.dirname, "..");
const save = { awaitingClient: false, clientChanged: false, serverPending: false };
// The client build's inputs, from its last metafile (kept when a read meets it half written).
let knownInputs = new Set();
const clientInputs = () => {
  try {
    const metafile = JSON.parse(readFileSync(path.join(root, "dist/client-metafile.json"), "utf8"));
    knownInputs = new Set(Object.keys(metafile.inputs));
  } catch {
    // being written: the last one read
  }
  return knownInputs;
};
const sources = watch(path.join(root, "src"), { recursive: true }, (_, file) => {
  const input = file && `src/${String(file).split(path.sep).join("/")}`;
  Object.assign(save, {
    awaitingClient: clientInputs().has(input),
    clientChanged: false,
    serverPending: false,
  });
});
// Updates go out in order, each once the worker serves the build it follows (or a later one): a
// page that reloads or imports a chunk before then would get the last build, or files not served.
// An update stops waiting once a later client build, or a build error, is queued behind it: a
// worker that fails to build (a broken loader) holds the page 30 s at most, however many saves.
const live = liveBuilds();
let outbox = Promise.resolve();
let waiting = { build: -1, controller: new AbortController() };
function deliver(update, build = -1) {
  if (build > waiting.build || update.type === "error") {
    waiting.controller.abort();
    waiting = { build, controller: new AbortController() };
  }
  const superseded = waiting.controller.signal;
  outbox = outbox
    .then(async () => {
      if (!(await live.untilServed(build, superseded)) && !superseded.aborted) {
        console.warn("[dev] the worker does not serve the new client build yet; the page updates anyway");
      }
      events.send(update);
    })
    // One update that cannot be sent must not stop the ones behind it.
    .catch((error) => console.warn(`[dev] could not send an update to the page: ${error.message}`));
}
function fromClientBuild({ update, names }) {
  const build = names.length > 0 ? live.built(names) : -1;
  save.awaitingClient = false;
  if (["refresh", "css", "reload"].includes(update.type)) save.clientChanged = true;
  else if (save.serverPending) deliver({ type: "server" }, build);
  save.serverPending = false;
  if (update.type !== "none") deliver(update, build);
}
function fromWrangler(line) {
  live.onLine(line);
  if (!line.includes("Local server updated and ready")) return;
  if (save.awaitingClient) save.serverPending = true;
  else if (!save.clientChanged) deliver({ type: "server" });
}

step("dev", "building the client (development)", process.execPath, clientBuild);
migrateLocally("dev", passThrough);
runTogether(
  [
    [process.execPath, [...clientBuild, "--watch"], process.env, { onMessage: fromClientBuild }],
    // DEV_SERVER: HTML is not gzipped by wrangler dev (which would hold a streamed page until it
    // ends), and no page comes from the edge cache. NODE_ENV=development: the worker build
    // (wrangler.toml [build]) bundles React's development code. No --live-reload: a worker reload
    // (after any client or server edit) refetches the page's data instead of reloading it.
    [
      wranglerBin,
      ["dev", "--var", "DEV_SERVER:1", ...LOCAL_SERVER_VARS, ...passThrough],
      { ...process.env, NODE_ENV: "development" },
      { onLine: fromWrangler },
    ],
  ],
  // The source watcher and any update still waiting would keep this process alive after Ctrl-C.
  {
    onStop: () => {
      sources.close();
      waiting.controller.abort();
      events.close();
    },
  },
);
