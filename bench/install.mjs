// Installs the benchmark's own packages (bench/package-lock.json) when they are missing or stale.
// The root's `npm run bench` preloads it (`node --import`), so the load tools stay out of the
// app's `npm install` and a fresh clone still benchmarks with one command.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";

const dir = import.meta.dirname;

/** Every package the lockfile pins is installed at its version (platform-specific optional ones aside). */
function installed() {
  try {
    const read = (file) => JSON.parse(readFileSync(path.join(dir, file), "utf8")).packages;
    const [wanted, present] = [read("package-lock.json"), read("node_modules/.package-lock.json")];
    return Object.entries(wanted).every(
      ([key, pkg]) => key === "" || pkg.optional || present[key]?.version === pkg.version,
    );
  } catch {
    return false; // no node_modules yet
  }
}

if (!installed()) {
  console.log("[bench] installing the benchmark's packages (npm ci --prefix bench), once");
  // Under `npm run`, the npm that runs us; otherwise the one on PATH.
  const npmCli = process.env.npm_execpath?.endsWith("npm-cli.js") ? process.env.npm_execpath : null;
  const [command, args] = npmCli ? [process.execPath, [npmCli]] : ["npm", []];
  const result = spawnSync(command, [...args, "ci", "--prefix", dir, "--no-audit", "--no-fund"], {
    stdio: "inherit",
    shell: !npmCli && process.platform === "win32",
  });
  if (result.status !== 0) {
    console.error("[bench] npm ci --prefix bench failed");
    process.exit(result.status ?? 1);
  }
}
