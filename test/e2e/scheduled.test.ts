// The scheduled sweep runs locally: `npm run dev` triggers it at /cdn-cgi/handler/scheduled, as
// docs/operating.md says, and the run writes its one log line in the server's output.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, inject, it } from "vitest";

const CRON = "17 * * * *";
/** Where the tests' `npm run dev` writes its output (test/e2e/global-setup.ts). */
const DEV_LOG = path.resolve(import.meta.dirname, "../../dist/e2e-dev.log");

const scheduledLines = async () =>
  (await readFile(DEV_LOG, "utf8"))
    .split("\n")
    .filter((line) => line.startsWith("{") && line.includes('"kind":"scheduled"'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe("the scheduled handler, triggered by hand under npm run dev", () => {
  it("runs, and writes its line: kind scheduled, the cron, the rows swept per table", async () => {
    const before = (await scheduledLines()).length;
    const response = await fetch(
      `${inject("devURL")}/cdn-cgi/handler/scheduled?cron=${encodeURIComponent(CRON)}`,
    );
    expect(response.status).toBe(200);
    await expect
      .poll(async () => (await scheduledLines()).slice(before))
      .toEqual([
        expect.objectContaining({
          level: "info",
          cron: CRON,
          swept: {
            sessions: expect.any(Number),
            webauthn_challenges: expect.any(Number),
            security_events: expect.any(Number),
          },
        }),
      ]);
  });
});
