// A stored shell whose React state has the shape React writes but does not fit the page's tree:
// it is forgotten at once (the entry deleted, the isolate's kept state dropped), so the next
// visitor gets a fresh render and a new shell, never the same failure for the entry's life.
import { Suspense } from "react";
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { cacheGeneration, cacheKey } from "../../src/server/cache-entry";
import { Await } from "../../src/shared/await";
import { page, type PageProps } from "../../src/shared/route-module";
import { manifest, recordedApp } from "../worker/apps";
import { withPostponed } from "../worker/stored-shells";

/** Shared loader runs, per page URL: a fresh render shows the next number. */
const runs = new Map<string, number>();

async function visitorLoader({ request }: { request: Request }) {
  const name = /(?:^|;\s*)name=([^;]*)/.exec(request.headers.get("Cookie") ?? "")?.[1] ?? "stranger";
  if (name === "boom") throw new Error("this visitor's part failed");
  return { name };
}

function Greeting({ data, visitor }: PageProps<{ runs: number }, string, unknown, typeof visitorLoader>) {
  return (
    <>
      <h1>{`Rows (render ${data.runs})`}</h1>
      <Suspense fallback={<p>Finding you…</p>}>
        <Await resolve={visitor}>{({ name }) => <p>{`Hello, ${name}`}</p>}</Await>
      </Suspense>
    </>
  );
}

const { send } = recordedApp([
  page("/greet", async () => ({
    default: Greeting,
    title: "Greeting",
    loader: ({ url }: { url: URL }) => {
      const n = (runs.get(url.href) ?? 0) + 1;
      runs.set(url.href, n);
      return { runs: n };
    },
    visitorLoader,
    cache: { maxAge: 60, query: ["test"] },
  })),
]);

const as = (name: string) => ({ headers: { Cookie: `name=${name}` } });
const cache = () => (caches as unknown as { default: Cache }).default;
const keyOf = (path: string) =>
  cacheKey(new URL(path, "http://localhost"), "html", cacheGeneration(manifest.build, env));

type State = Record<string, unknown>;

/** A page whose shell Ada's visit stored, then replaced by one with `edit`ed state; and the original. */
async function spoiled(edit: (state: State) => unknown) {
  const path = `/greet?test=${crypto.randomUUID()}`;
  await send(path, as("Ada"));
  const original = (await cache().match(keyOf(path)))!;
  const good = original.clone();
  await cache().put(keyOf(path), await withPostponed(original, edit));
  return { path, good };
}

const cases: Record<string, (state: State) => unknown> = {
  // resume() itself throws on it.
  "a replay node React cannot read": (state) => ({ ...state, replayNodes: [null] }),
  // React replays, finds another element where the state says, and gives the boundary up.
  "a replay path through an element the page does not render": (state) =>
    JSON.parse(JSON.stringify(state).replace(/"main"/g, '"mayn"')),
};

describe("a stored shell that does not fit the page", () => {
  it.each(Object.entries(cases))(
    "is deleted on its first failed resume (%s): the next visitor gets a fresh render and a new shell",
    async (_, edit) => {
      const { path } = await spoiled(edit);
      const bob = await send(path, as("Bob"));
      expect(bob.lines[0]).toMatchObject({ cache: "shell", level: "error" });
      expect(await cache().match(keyOf(path))).toBeUndefined();

      const cy = await send(path, as("Cy"));
      expect(cy.lines[0]).toMatchObject({ cache: "miss", level: "info" });
      expect(cy.body).toContain("Hello, Cy");
      expect(cy.body).toContain("Rows (render 2)");

      const dee = await send(path, as("Dee"));
      expect(dee.lines[0]).toMatchObject({ cache: "shell", level: "info" });
      expect(dee.body).toContain("Hello, Dee");
      expect(dee.body).toContain("Rows (render 2)");
    },
  );

  it("is not kept by the isolate either: the same shell id, stored sound again, resumes", async () => {
    const { path, good } = await spoiled(cases["a replay node React cannot read"]!);
    await send(path, as("Bob"));
    // The sound entry under the same shell id: a state the isolate kept would still fail.
    await cache().put(keyOf(path), good);
    const cy = await send(path, as("Cy"));
    expect(cy.lines[0]).toMatchObject({ cache: "shell", level: "info" });
    expect(cy.body).toContain("Hello, Cy");
    expect(cy.body).toContain("Rows (render 1)");
  });

  it("is never sent when its state has nothing to replay: the page is made anew", async () => {
    const { path } = await spoiled((state) => ({ ...state, replayNodes: [], replaySlots: null }));
    const bob = await send(path, as("Bob"));
    expect(bob.lines[0]).toMatchObject({ cache: "miss", shellRefused: "unreadable state" });
    expect(bob.body).toContain("Hello, Bob");
    expect(bob.body).toContain("Rows (render 2)");
  });

  it("is kept when only a visitor's own part fails: the next visitor still gets it", async () => {
    const path = `/greet?test=${crypto.randomUUID()}`;
    await send(path, as("Ada"));
    const boom = await send(path, as("boom"));
    expect(boom.lines[0]).toMatchObject({ cache: "shell", level: "error" });
    const cy = await send(path, as("Cy"));
    expect(cy.lines[0]).toMatchObject({ cache: "shell", level: "info" });
    expect(cy.body).toContain("Rows (render 1)");
  });
});
