// Every digest a visitor can see is on the request's log line: two sections of one page that
// fail give two digests, and the line carries both (the first as `digest`, the next under
// `errors`), so `npm run logs -- --digest` finds either.
import { Suspense } from "react";
import { describe, expect, it } from "vitest";
import { page, type RouteModule } from "../../src/shared/route-module";
import { Await } from "../../src/shared/await";
import { recordedApp } from "../worker/apps";
import { lineFilter } from "../../scripts/log-records.mjs";

const failing = (message: string, ms: number) =>
  new Promise<string>((_, reject) => setTimeout(() => reject(new Error(message)), ms));

const twoFailures: RouteModule = {
  title: "Two failures",
  loader: () => ({
    first: failing("first section failed", 10),
    second: failing("second section failed", 30),
  }),
  default: ({ data }: { data: { first: Promise<string>; second: Promise<string> } }) => (
    <>
      <h1>Two failing sections</h1>
      <Suspense fallback={<p>Loading one</p>}>
        <Await resolve={data.first}>{(text) => <p>{text}</p>}</Await>
      </Suspense>
      <Suspense fallback={<p>Loading two</p>}>
        <Await resolve={data.second}>{(text) => <p>{text}</p>}</Await>
      </Suspense>
    </>
  ),
};

const { send } = recordedApp([page("/two", async () => twoFailures)]);

describe("a page whose two streamed sections fail", () => {
  it("shows two digests, and its one log line carries both with their messages", async () => {
    const { body, lines, reports } = await send("/two");
    const shown = [...body.matchAll(/Digest: <code data-testid="digest">([0-9a-z]+)<\/code>/g)].map(
      (m) => m[1],
    );
    expect(shown).toHaveLength(2);
    expect(new Set(shown).size).toBe(2);
    expect(lines).toHaveLength(1);
    const line = lines[0]!;
    expect(line.digest).toBe(shown[0]);
    expect(line.message).toBe("first section failed");
    expect(line.errors).toEqual([
      expect.objectContaining({ digest: shown[1], message: "second section failed" }),
    ]);
    expect(reports.map((report) => report.digest)).toEqual(shown);
  });

  it("is found by `npm run logs -- --digest` under either digest", async () => {
    const { body, lines } = await send("/two");
    const shown = [...body.matchAll(/Digest: <code data-testid="digest">([0-9a-z]+)<\/code>/g)].map(
      (m) => m[1],
    );
    for (const digest of shown) expect(lines.filter(lineFilter({ digest }))).toHaveLength(1);
    expect(lines.filter(lineFilter({ digest: "notadigest" }))).toHaveLength(0);
  });
});
