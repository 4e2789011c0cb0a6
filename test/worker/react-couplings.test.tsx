// React's internals the runtime relies on (src/server/react-couplings.ts), checked against both of
// React's server builds as installed: a React upgrade that changes one fails here, naming it, before
// it shows as shells never stored or never resumed.
import { Suspense, use } from "react";
import * as nodeServer from "react-dom/server";
import * as nodeStatic from "react-dom/static";
import * as edgeServer from "react-dom/server.edge";
import * as edgeStatic from "react-dom/static.edge";
import { describe, expect, it } from "vitest";
import {
  doesNotFit,
  isPostponedState,
  preludeScripts,
  prerenderTurns,
  READ_FROM,
  RENDERER,
} from "../../src/server/react-couplings";

const builds = [
  { name: "node", server: nodeServer, prerender: nodeStatic.prerender },
  { name: "edge", server: edgeServer, prerender: edgeStatic.prerender },
] as const;

/** Why a check failed, and where to look. */
const broke = (what: string, version: string) =>
  `react-dom ${version} no longer ${what} as ${READ_FROM} did: update src/server/react-couplings.ts`;

/** Reads `value`, then each of `next` inside a boundary of its own, one in the other. */
function Read({ value, next = [] }: { value: Promise<string>; next?: Promise<string>[] }) {
  const [then, ...rest] = next;
  return (
    <>
      <p>{use(value)}</p>
      {then && (
        <Suspense fallback={<p>Loading what follows</p>}>
          <Read value={then} next={rest} />
        </Suspense>
      )}
    </>
  );
}

/**
 * A page with a section that waits for shared data (and, once it has it, for what follows from it,
 * two boundaries deep: a loader's value a component reads on), and a hole that waits for the
 * visitor.
 */
function Page({
  shared,
  hole,
  Main = "main",
}: {
  shared: Promise<string>;
  hole: Promise<string>;
  Main?: "main" | "div";
}) {
  const once = shared.then((text) => `${text}, read on`);
  const twice = once.then((text) => `${text} and on`);
  return (
    <html lang="en">
      <head>
        <title>Couplings</title>
      </head>
      <body>
        <Main>
          <Suspense fallback={<p>Loading the shared part</p>}>
            <Read value={shared} next={[once, twice]} />
          </Suspense>
          <Suspense fallback={<p>Finding you</p>}>
            <Read value={hole} />
          </Suspense>
        </Main>
      </body>
    </html>
  );
}

const ENTRY = "/assets/entry-&1.js";

/** The page prerendered as shell.tsx does: stopped React's turns after the shared data settled. */
async function shell(prerender: (typeof builds)[number]["prerender"]) {
  const shared = new Promise<string>((resolve) => setTimeout(() => resolve("The shared part"), 5));
  const stop = new AbortController();
  void shared.then(prerenderTurns).then(() => stop.abort());
  const { prelude, postponed } = await prerender(<Page shared={shared} hole={new Promise(() => {})} />, {
    bootstrapModules: [ENTRY],
    signal: stop.signal,
    progressiveChunkSize: Number.MAX_SAFE_INTEGER,
    onError: () => undefined,
  });
  return {
    html: await new Response(prelude).text(),
    postponed: JSON.parse(JSON.stringify(postponed)) as unknown,
  };
}

it("renders with React's Node build (verge/vite's default renderer), and records it", () => {
  // The Node build alone has renderToPipeableStream.
  expect(Object.keys(nodeServer)).toContain("renderToPipeableStream");
  expect(Object.keys(edgeServer)).not.toContain("renderToPipeableStream");
  expect(RENDERER).toBe(`node ${nodeServer.version}`);
});

it("gives the built-ins verge/vite hands React's Node build lazily, through process.getBuiltinModule", () => {
  // The production build replaces React's require("crypto") and require("stream") with getters
  // over these (src/vite/renderer.ts): workerd must have them where the worker runs.
  const hash = process.getBuiltinModule("node:crypto").createHash("md5").update("verge").digest("hex");
  expect(hash).toBe("afe76348b19a69a5b4beb8641095dd16");
  expect(typeof process.getBuiltinModule("node:stream").Readable).toBe("function");
});

describe.each(builds)("React's $name build", ({ server, prerender }) => {
  it("has rendered what settled data unblocks, two boundaries deep, after prerenderTurns()", async () => {
    const { html } = await shell(prerender);
    const rendered = broke("renders what settled data unblocks within prerenderTurns()", server.version);
    expect(html, rendered).toContain("<p>The shared part, read on and on</p>");
    expect(html, rendered).not.toMatch(/Loading (the shared part|what follows)/);
  });

  it("writes in a prelude no script but preludeScripts(), each as matched", async () => {
    const { html } = await shell(prerender);
    const expected = preludeScripts(ENTRY);
    for (const tag of expected)
      expect(html, broke(`writes ${tag} in a prelude`, server.version)).toContain(tag);
    const tags = html.match(/<script\b[^>]*>/gi) ?? [];
    const known = tags.filter((tag) => expected.some((script) => script.startsWith(tag)));
    expect(known, broke("writes only preludeScripts() in a prelude", server.version)).toEqual(tags);
  });

  it("leaves a postponed state isPostponedState() reads, once through JSON", async () => {
    const { postponed } = await shell(prerender);
    expect(isPostponedState(postponed), broke("leaves the postponed state's fields", server.version)).toBe(
      true,
    );
  });

  it("gives a boundary up in the words doesNotFit() reads when the state does not fit the tree", async () => {
    const { postponed } = await shell(prerender);
    const errors: unknown[] = [];
    const page = <Page shared={Promise.resolve("The shared part")} hole={Promise.resolve("Hi")} Main="div" />;
    const stream = await server.resume(page, postponed as nodeStatic.PostponedState, {
      onError: (error) => void errors.push(error),
    });
    await new Response(stream).text();
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.every(doesNotFit), broke("says the tree doesn't match", server.version)).toBe(true);
  });
});
