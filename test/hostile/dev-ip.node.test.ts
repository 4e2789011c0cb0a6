// `npm run dev -- --ip 0.0.0.0` serves every source file to anyone who reaches the port: the
// command says so before it starts, and says nothing for the loopback addresses it serves by default.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { root } from "../node/dist";

const state = mkdtempSync(path.join(os.tmpdir(), "verge-dev-ip-"));

/**
 * What `npm run dev -- --ip <ip>` prints before its first step (the local D1 migrations): the
 * process is stopped there, before any server starts.
 */
function startOf(command: "dev" | "preview", ip: string): Promise<string> {
  const args = ["scripts/serve.mjs", command, "--ip", ip, "--port", "0", "--persist-to", state];
  if (command === "preview") args.push("--no-build");
  const child = spawn(process.execPath, args, {
    cwd: root,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let printed = "";
  return new Promise((resolve, reject) => {
    const read = (chunk: Buffer) => {
      printed += chunk.toString();
      if (!printed.includes("applying D1 migrations")) return;
      process.kill(-child.pid!, "SIGKILL");
      resolve(printed);
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    child.on("exit", () => resolve(printed));
    child.on("error", reject);
  });
}

describe("npm run dev -- --ip", () => {
  afterAll(() => rmSync(state, { recursive: true, force: true }));

  it.each(["0.0.0.0", "::", "192.168.1.20"])("warns what --ip %s exposes, before it starts", async (ip) => {
    const printed = await startOf("dev", ip);
    expect(printed).toContain(`[dev] warning: --ip ${ip}`);
    expect(printed).toContain("every source file of the project");
    expect(printed).toContain("local D1 data");
  });

  it.each(["localhost", "127.0.0.1", "::1"])("says nothing for the loopback address %s", async (ip) => {
    const printed = await startOf("dev", ip);
    expect(printed).toContain("applying D1 migrations");
    expect(printed).not.toContain("warning");
  });

  it("warns for `npm run preview` too, of what the build serves", async () => {
    const printed = await startOf("preview", "0.0.0.0");
    expect(printed).toContain("[preview] warning: --ip 0.0.0.0");
    expect(printed).toContain("local D1 data");
  });
});
