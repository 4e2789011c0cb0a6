// A render has a deadline (DEFERRED_TIMEOUT_MS) for any suspension, not only deferred loader
// values: a lazy component or a use() of a promise that never settles cannot hold a response
// open. Past the deadline the stream ends, and the digest it carries is logged and reported.
import { lazy, Suspense, use, type ComponentType } from "react";
import { describe, expect, it } from "vitest";
import { page, type RouteModule } from "../../src/shared/route-module";
import { SERVER_ERROR_TEXT } from "../../src/shared/error-views";
import { recordedApp } from "../worker/apps";
import { digestIn } from "../worker/html";

const never = new Promise<never>(() => {});

function Forever(): never {
  use(never);
  throw new Error("unreachable");
}

const NeverLoaded = lazy(() => never as Promise<{ default: ComponentType }>);

function inSection(Pending: ComponentType): RouteModule {
  return {
    title: "Suspends",
    default: () => (
      <>
        <h1>The shell</h1>
        <Suspense fallback={<p>Loading the section</p>}>
          <Pending />
        </Suspense>
      </>
    ),
  };
}

const { send } = recordedApp([
  page("/use", async () => inSection(Forever)),
  page("/lazy", async () => inSection(NeverLoaded)),
  page("/shell", async () => ({ title: "Suspends in the shell", default: Forever })),
]);

const DEADLINE = { DEFERRED_TIMEOUT_MS: "200" };

describe("a render past its deadline", () => {
  it.each([
    ["a use() of a promise that never settles", "/use"],
    ["a lazy component that never loads", "/lazy"],
  ])("ends the stream when %s holds a section, with a logged digest", async (_, path) => {
    const started = Date.now();
    const { response, body, lines, reports } = await send(path, {}, DEADLINE);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(response.status).toBe(200);
    expect(body).toContain("The shell");
    expect(body).toMatch(/<\/html>$/);
    expect(lines).toHaveLength(1);
    const digest = lines[0]!.digest as string;
    expect(digest).toMatch(/^[0-9a-z]{8,16}$/);
    expect(lines[0]!.message).toMatch(/did not finish rendering within 200 ms/);
    // React hands the unfinished section to the browser with this digest.
    expect(body).toContain(`"${digest}"`);
    expect(reports.map((report) => report.digest)).toEqual([digest]);
  });

  it("answers the fallback page with a digest when the shell itself never finishes", async () => {
    const started = Date.now();
    const { response, body, lines } = await send("/shell", {}, DEADLINE);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(response.status).toBe(500);
    expect(body).toContain(SERVER_ERROR_TEXT);
    expect(lines[0]).toMatchObject({ status: 500, digest: digestIn(body) });
  });
});
