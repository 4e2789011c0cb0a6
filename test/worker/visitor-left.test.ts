// A visitor who leaves while a streamed section is still loading is not an error: the runtime
// aborts the request's signal (compatibility flag enable_request_signal) and cancels the body,
// React aborts the pending boundary, and the renderer does not report that abort.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { recordingApp } from "./recording-app";

/** Opens /slow, reads the shell, then cuts the response off the way `leave` says. */
async function cutShort(leave: { requestSignal: boolean }) {
  const { app, reports, lines } = recordingApp();
  const ctx = createExecutionContext();
  const visitor = new AbortController();
  const request = new Request("http://localhost/slow", { signal: visitor.signal });
  const response = await app.fetch(request, env, ctx);
  const reader = response.body!.getReader();
  const shell = new TextDecoder().decode((await reader.read()).value);
  if (leave.requestSignal) visitor.abort();
  await reader.cancel();
  await waitOnExecutionContext(ctx);
  return { shell, reports, lines: lines() };
}

describe("a visitor who leaves mid-stream", () => {
  it("is logged as the 200 it was, with no digest and nothing sent to Sentry", async () => {
    const { shell, reports, lines } = await cutShort({ requestSignal: true });
    expect(shell).toContain("Loading the slow part");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: "info", status: 200, route: "/slow" });
    expect(lines[0]).not.toHaveProperty("digest");
    expect(reports).toEqual([]);
  });

  it("would be reported as an error if the runtime did not abort the request's signal", async () => {
    // The control: the same cut without the signal, as a runtime without the flag would do it.
    const { reports, lines } = await cutShort({ requestSignal: false });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: "error", route: "/slow" });
    expect(lines[0]!.digest).toMatch(/^[0-9a-z]+$/);
    expect(reports).toHaveLength(1);
  });
});
