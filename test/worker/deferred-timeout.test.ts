// A deferred loader value that misses its deadline (DEFERRED_TIMEOUT_MS) settles as an error:
// the section shows the route error view with a digest, the response ends, and the digest is
// in the log line and the report, in HTML and page data alike.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { recordingApp } from "./recording-app";
import { digestIn, mainText } from "./html";

/** /slow's value takes about a second; a 50 ms deadline passes first. */
async function visitSlow(deadline: string, headers: Record<string, string> = {}) {
  const { app, reports, lines } = recordingApp();
  const ctx = createExecutionContext();
  const request = new Request("http://localhost/slow", { headers });
  const response = await app.fetch(request, { ...env, DEFERRED_TIMEOUT_MS: deadline }, ctx);
  const body = await response.text();
  await waitOnExecutionContext(ctx);
  return { response, body, reports, lines: lines() };
}

describe("a deferred value past its deadline", () => {
  it("renders the route error view with a digest in place of the section, keeping the page", async () => {
    const { response, body, lines, reports } = await visitSlow("50");
    expect(response.status).toBe(200);
    expect(mainText(body)).toContain("This part was sent at once");
    expect(body).not.toContain("Arrived after");
    expect(body).toContain('data-testid="route-error"');
    const digest = digestIn(body)!;
    expect(digest).toMatch(/^[0-9a-z]{8,16}$/);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: "error", status: 200, route: "/slow", digest });
    expect(lines[0]!.message).toBe("Deferred loader data did not settle within 50 ms");
    expect(reports.map((report) => report.digest)).toEqual([digest]);
  });

  it("settles to the same kind of error marker in page data", async () => {
    const { response, body, lines } = await visitSlow("50", { "X-Page-Data": "1" });
    expect(response.status).toBe(200);
    const { data } = JSON.parse(body) as { data: { slow: unknown } };
    expect(data.slow).toEqual({ $deferred: "slow", settled: { error: { digest: lines[0]!.digest } } });
  });

  it("does not fire for a value that settles in time (the default deadline is 10 s)", async () => {
    const { body, lines, reports } = await visitSlow("");
    expect(body).toContain("Arrived after");
    expect(body).not.toContain('data-testid="route-error"');
    expect(lines[0]).toMatchObject({ level: "info", status: 200 });
    expect(reports).toEqual([]);
  });
});
