// `npm run dev` and `npm run preview`: Vite's dev server (the worker in
// workerd, Fast Refresh) or the production build in workerd, on http://localhost:8787. They take
// what `wrangler dev` took: `--port P`, `--ip HOST`, `--var NAME:VALUE` (repeatable) and
// `--persist-to DIR` (where local D1 lives), `--inspector-port P`, and `--config FILE` (another
// app's vite.config.ts, as the tests' own app has); `npm run preview -- --no-build` serves the last
// build as it is. Anything else is refused with the list.
//   node scripts/serve.mjs dev|preview [-- arguments]
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";

const root = path.resolve(import.meta.dirname, "..");
const [command, ...given] = process.argv.slice(2);

function usage(problem) {
  console.error(`[${command}] ${problem}
usage: npm run ${command} -- [--port P] [--ip HOST] [--var NAME:VALUE]... [--persist-to DIR]
       [--inspector-port P] [--config vite.config.ts] [--no-build] (preview)`);
  process.exit(2);
}

if (command !== "dev" && command !== "preview") usage("say dev or preview");
let values;
try {
  ({ values } = parseArgs({
    args: given,
    options: {
      port: { type: "string" },
      ip: { type: "string" },
      var: { type: "string", multiple: true, default: [] },
      "persist-to": { type: "string" },
      "inspector-port": { type: "string" },
      config: { type: "string" },
      "no-build": { type: "boolean", default: false },
    },
  }));
} catch (error) {
  usage(error.message);
}
const port = values.port === undefined ? 8787 : Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) usage(`--port ${values.port} is not a port`);
const vars = {};
for (const pair of values.var) {
  const at = pair.indexOf(":");
  if (at < 1) usage(`--var ${pair}: write NAME:VALUE`);
  vars[pair.slice(0, at)] = pair.slice(at + 1);
}
const persistTo = values["persist-to"] && path.resolve(values["persist-to"]);
const inspectorPort = values["inspector-port"] === undefined ? undefined : Number(values["inspector-port"]);
const configFile = values.config && path.resolve(values.config);
// The app's folder: its wrangler.toml (and local state) are there.
const appRoot = configFile ? path.dirname(configFile) : root;

/** Runs one step before the server, its output shown; exits with its status when it fails. */
function step(label, file, args, env = process.env) {
  console.log(`[${command}] ${label}`);
  const result = spawnSync(file, args, { cwd: root, env, stdio: ["ignore", "inherit", "inherit"] });
  if (result.status !== 0) {
    console.error(`[${command}] failed: ${label}. Fix the error above and run \`npm run ${command}\` again.`);
    process.exit(result.status ?? 1);
  }
}

const host = values.ip ?? "localhost";
if (!isLoopback(host)) console.error(exposure(host));
const vite = await import("vite");
if (command === "preview" && !values["no-build"]) {
  const vitePath = path.join(root, "node_modules/vite/bin/vite.js");
  step(
    "building (production)",
    process.execPath,
    [vitePath, "build", ...(configFile ? ["--config", configFile] : [])],
    {
      ...process.env,
      NODE_ENV: "production",
    },
  );
}
// Offline by default: Miniflare would fetch a sample `request.cf` from workers.cloudflare.com at
// each start (up to 3 s, and a stack printed without a network); its built-in sample serves as well.
process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= "false";
// The worker knows it is served locally (src/server/dev.ts).
vars.LOCAL_SERVER = "1";
// Read by vite.config.ts (localVars in src/vite/local.ts): never part of a build.
// The Vite plugin (verge:migrations) applies the app's local D1 migrations before the server
// answers, and under dev again whenever a migration file is added or saved.
const wranglerConfig = path.join(appRoot, "wrangler.toml");
process.env.VERGE_LOCAL = JSON.stringify({ vars, persistTo, inspectorPort, wranglerConfig });
let server;
try {
  if (command === "dev") {
    server = await vite.createServer({ configFile, server: { port, host, strictPort: true } });
    await server.listen();
  } else {
    await previewVars(vars);
    server = await vite.preview({ configFile, preview: { port, host, strictPort: true } });
  }
} catch (error) {
  console.error(`[${command}] ${error.message}`);
  process.exit(1);
}
server.printUrls();
/** Stops the server and the workerd it started, then this process (at most 5 s: then at once). */
async function stop() {
  setTimeout(() => process.exit(0), 5000).unref();
  await server.close();
  process.exit(0);
}
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, stop);
// Whoever ran this (npm, a terminal, a test) may end without a signal reaching us: once our parent
// is gone, we are an orphan holding a port and a workerd, so stop too.
const parent = process.ppid;
setInterval(() => process.ppid !== parent && stop(), 1000).unref();

/**
 * `vite preview` reads the built worker's configuration, and its local vars beside it in
 * `.dev.vars` (which never deploys). That file is written anew for each run: the app's own
 * `.dev.vars` and the vars given now (which win), never what an earlier run (a test's) left there.
 */
async function previewVars(given) {
  const { readFile, writeFile } = await import("node:fs/promises");
  // The built worker's folder, as the Cloudflare plugin's deploy redirect names it.
  const redirect = path.join(appRoot, ".wrangler/deploy/config.json");
  const deploy = await readFile(redirect, "utf8").catch(() => null);
  const built = deploy && path.resolve(path.dirname(redirect), JSON.parse(deploy).configPath);
  if (!built || !existsSync(built)) {
    console.error("[preview] there is no build to serve: run `npm run build`, or leave out --no-build");
    process.exit(1);
  }
  const file = path.join(path.dirname(built), ".dev.vars");
  const kept = (await readFile(path.join(appRoot, ".dev.vars"), "utf8").catch(() => ""))
    .split("\n")
    .filter((line) => line.trim() !== "" && !Object.hasOwn(given, line.split("=")[0].trim()));
  const lines = Object.entries(given).map(([name, value]) => `${name}=${JSON.stringify(value)}`);
  await writeFile(file, [...kept, ...lines].join("\n") + "\n");
}

/** Whether `host` is this machine alone (the default): anything else is reachable from elsewhere. */
function isLoopback(host) {
  return /^(localhost|127(\.\d{1,3}){3}|::1|\[::1\])$/i.test(host);
}

/** What `--ip host` hands to anyone who can reach the port, said before the server starts. */
function exposure(host) {
  const served =
    command === "dev"
      ? "every source file of the project (Vite serves them to the browser: pages with their " +
        "loaders, actions and SQL), error pages with stacks, and the worker"
      : "the production build and its worker";
  return (
    `[${command}] warning: --ip ${host} serves this machine's ${command} server beyond it: anyone ` +
    `who can reach port ${port} gets ${served}, with its local vars (--var, .dev.vars) and local ` +
    `D1 data. Use it on a network you trust; leave out --ip to serve this machine alone.`
  );
}
