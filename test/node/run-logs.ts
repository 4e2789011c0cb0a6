// Runs `npm run logs` (scripts/logs.mjs) as a user does: `input` on stdin, colours off; and
// writes a line as `wrangler tail --format json` shows it.
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

/** One `wrangler tail --format json` event: wrangler prints each with 4-space indentation. */
export const tailEvent = (logged: object) =>
  JSON.stringify(
    {
      outcome: "ok",
      scriptName: "verge",
      diagnosticsChannelEvents: [],
      exceptions: [],
      logs: [{ message: [JSON.stringify(logged)], level: "log", timestamp: 1795270000000 }],
      eventTimestamp: 1795270000000,
      event: {
        request: {
          url: `https://verge.example${(logged as { path: string }).path}`,
          method: "GET",
          headers: {},
        },
        response: { status: 200 },
      },
    },
    null,
    4,
  );
