// Runs `npm run logs` (scripts/logs.mjs) as a user does: `input` on stdin, colours off.
import { spawnSync } from "node:child_process";
import path from "node:path";

const script = path.resolve(import.meta.dirname, "../../scripts/logs.mjs");

export function logs(args: string[], input: string) {
  const result = spawnSync(process.execPath, [script, ...args], {
    input,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
