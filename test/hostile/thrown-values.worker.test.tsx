// Whatever page code throws (an Error or not: a string, a plain object, null, a Response, an
// object without a prototype) gets the same treatment: the fallback with a digest, the digest on
// the log line and on the report. Capturing never throws.
import { Suspense } from "react";
import { describe, expect, it } from "vitest";
import { page, type RouteModule } from "../../src/shared/route-module";
import { Await } from "../../src/shared/await";
import { SERVER_ERROR_TEXT } from "../../src/shared/error-views";
import { recordedApp } from "../worker/apps";
import { digestIn } from "../worker/html";
import { BUILD, ORIGIN } from "../worker/action-helpers";

const THROWN: [string, () => unknown][] = [
  ["a string", () => "plain string"],
  ["a plain object", () => ({ code: 42 })],
  ["null", () => null],
  ["undefined", () => undefined],
  ["a Response", () => new Response("nope", { status: 418 })],
  ["an object without a prototype", () => Object.create(null)],
  [
    "an object whose toString throws",
    () => ({
      toString: () => {
        throw new Error("no");
      },
    }),
  ],
];

function throwing(value: () => unknown): RouteModule {
  return {
    title: "Throws",
    default: () => null,
    loader: () => {
      throw value();
    },
    actions: {
      go: () => {
        throw value();
      },
    },
  };
}

function rendering(value: () => unknown): RouteModule {
  return {
    title: "Throws while rendering",
    default: () => {
      throw value();
    },
  };
}

function streaming(value: () => unknown): RouteModule {
  return {
    title: "Throws in a streamed section",
    loader: () => ({ later: Promise.reject(value()) }),
    default: ({ data }: { data: { later: Promise<string> } }) => (
      <main>
        <p>Shell</p>
        <Suspense fallback={<p>Loading</p>}>
          <Await resolve={data.later}>{(text) => <p>{text}</p>}</Await>
        </Suspense>
      </main>
    ),
  };
}

const digestOf = (body: string) =>
  digestIn(body) ?? (JSON.parse(body) as { error?: { digest?: string } }).error?.digest;

describe.each(THROWN)("a thrown value: %s", (_, value) => {
  const { send } = recordedApp([
    page("/loader", async () => throwing(value)),
    page("/render", async () => rendering(value)),
    page("/stream", async () => streaming(value)),
  ]);

  it.each([
    ["a document whose loader throws it", "/loader", {}],
    ["page data whose loader throws it", "/loader?_data=1", { headers: { "X-Page-Data": "1" } }],
    ["a document whose component throws it", "/render", {}],
    [
      "a script action that throws it",
      "/loader",
      {
        method: "POST",
        headers: { "X-Action": "go", "X-Build": BUILD, Origin: ORIGIN, "Content-Type": "application/json" },
        body: "{}",
      },
    ],
  ])("answers %s with a 500 and a digest, logged and reported", async (_, path, init) => {
    const { response, body, lines, reports } = await send(path, init as RequestInit);
    expect(response.status).toBe(500);
    const digest = digestOf(body);
    expect(digest).toMatch(/^[0-9a-z]{8,16}$/);
    if (response.headers.get("content-type")?.startsWith("text/html"))
      expect(body).toContain(SERVER_ERROR_TEXT);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: "error", status: 500, digest });
    expect(typeof lines[0]!.message).toBe("string");
    expect(reports.map((report) => report.digest)).toEqual([digest]);
  });

  it("shows the route error view with a digest when a streamed section rejects with it", async () => {
    const { response, body, lines, reports } = await send("/stream");
    expect(response.status).toBe(200);
    expect(body).toContain("Shell");
    expect(body).toContain('data-testid="route-error"');
    const digest = digestIn(body);
    expect(lines[0]).toMatchObject({ status: 200, digest });
    expect(reports.map((report) => report.digest)).toEqual([digest]);
  });
});
