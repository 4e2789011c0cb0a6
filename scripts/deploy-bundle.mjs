// The worker as `npm run deploy` would upload it, built by the wrangler command of
// `npm run check:deploy` (same flags as deploy: minified, production React): the bundle-size
// test (test/node/worker-bundle.test.ts) and the benchmark (bench/) weigh and run one command's output.
import { spawnSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");

/**
 * Bundles the Worker of `config` (default: wrangler.toml) into `outdir`; returns its .js files.
 * `script` replaces the config's `main` (wrangler deploy's positional argument), same settings;
 * `minify: false` keeps names readable (for profiles).
 */
export function buildDeployBundle(outdir, { config, script, minify = true, env = process.env } = {}) {
  const checkDeploy = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).scripts[
    "check:deploy"
  ];
  const flags = checkDeploy.slice(checkDeploy.indexOf("wrangler deploy")).replace(/--outdir \S+/, "");
  const command =
    (minify ? flags : flags.replace(" --minify", "")) +
    (config ? ` --config ${JSON.stringify(config)}` : "") +
    (script ? ` ${JSON.stringify(script)}` : "") +
    ` --outdir ${JSON.stringify(outdir)}`;
  const run = spawnSync(command, {
    cwd: root,
    shell: true,
    env: { ...env, PATH: `${path.join(root, "node_modules/.bin")}${path.delimiter}${env.PATH}` },
    encoding: "utf8",
  });
  const files = readdirSync(outdir).filter((file) => file.endsWith(".js"));
  if (run.status !== 0 || files.length === 0)
    throw new Error(`${command} failed:\n${run.stdout}\n${run.stderr}`);
  return files.map((file) => path.join(outdir, file));
}
