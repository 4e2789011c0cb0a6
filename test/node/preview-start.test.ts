// How verge/test/browser waits for a server it started (answered(), under startPreview and the
// browser tests' global setup): real child processes that answer, exit or stay silent, and
// whether another start may do better.
import { spawn } from "node:child_process";
import { createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { answered, freePort } from "../../src/test/browser/preview";

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

/** `node -e script` with PORT set, its output in a log file; the process and its address. */
async function server(script: string) {
  const dir = await mkdtemp(path.join(os.tmpdir(), "verge-answered-"));
  dirs.push(dir);
  const port = await freePort();
  const logFile = path.join(dir, "out.log");
  const child = spawn(process.execPath, ["-e", script], {
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const out = createWriteStream(logFile);
  child.stdout.pipe(out);
  child.stderr.pipe(out);
  const stop = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
  };
  return { child, url: `http://127.0.0.1:${port}`, logFile, stop };
}

const until = (ms: number) => ({ path: "/ready", status: 204, ms });

describe("answered()", () => {
  it("resolves once the server answers the probe with the status asked for", async () => {
    const s = await server(`
      require("node:http").createServer((req, res) => {
        res.writeHead(req.url === "/ready" ? 204 : 404).end();
      }).listen(Number(process.env.PORT), "127.0.0.1");`);
    try {
      await expect(answered("a server", s.child, s.url, s.logFile, until(20_000))).resolves.toBeUndefined();
    } finally {
      s.stop();
    }
  });

  it.each([
    ["vite preview's words", "[preview] Port 4321 is already in use"],
    ["Node's", "Error: listen EADDRINUSE: address already in use 127.0.0.1:4321"],
  ])(
    "gives up on a server that exits, with its last lines; a taken port (%s) may go again",
    async (_, said) => {
      const taken = await server(`console.error(${JSON.stringify(said)}); process.exit(1)`);
      const error = (await answered("a server", taken.child, taken.url, taken.logFile, until(20_000)).catch(
        (e: unknown) => e,
      )) as Error & { again?: boolean };
      expect(error.message).toBe(`a server exited (code 1); its output ends:\n${said}`);
      expect(error.again).toBe(true);
    },
  );

  it("does not ask for another start when the server exits for another reason (a failed build)", async () => {
    const broken = await server(
      `console.error("error during build: Could not resolve './nope'"); process.exit(1)`,
    );
    const error = (await answered("a server", broken.child, broken.url, broken.logFile, until(20_000)).catch(
      (e: unknown) => e,
    )) as Error & { again?: boolean };
    expect(error.message).toContain("Could not resolve './nope'");
    expect(error.again).toBe(false);
  });

  it("stops waiting for a server that never answers, and says so", async () => {
    const silent = await server(`console.log("starting…"); setInterval(() => {}, 1000)`);
    try {
      const error = (await answered("a server", silent.child, silent.url, silent.logFile, until(1_500)).catch(
        (e: unknown) => e,
      )) as Error & { again?: boolean };
      expect(error.message).toMatch(
        /^a server did not answer 204 at http:\/\/127\.0\.0\.1:\d+\/ready within 1\.5 s/,
      );
      expect(error.message).toContain("starting…");
      expect(error.again).toBe(true);
    } finally {
      silent.stop();
    }
  });
});
