// Pages with a per-visitor loader: one stored shell, resumed for each visitor with their own data.
import { Suspense, use } from "react";
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { cacheGeneration, cacheKey } from "../../src/server/cache-entry";
import { Await } from "../../src/shared/await";
import { page, type PageProps, type RouteModule } from "../../src/shared/route-module";
import { IDEMPOTENCY_FIELD, PAGE_DATA_HEADER } from "../../src/shared/protocol";
import { manifest, recordedApp } from "./apps";
import { cspNonce, request } from "./html";
import { withPostponed } from "./stored-shells";

/** Shared loader runs, per page URL. */
const runs = new Map<string, number>();

async function visitorLoader({ request }: { request: Request }) {
  const name = /(?:^|;\s*)name=([^;]*)/.exec(request.headers.get("Cookie") ?? "")?.[1] ?? "stranger";
  return { name: decodeURIComponent(name) };
}

function Greeting({
  data,
  visitor,
}: PageProps<{ runs: number; rows: string[] }, string, unknown, typeof visitorLoader>) {
  return (
    <>
      <h1>{`Rows (render ${data.runs})`}</h1>
      <Suspense fallback={<p>Finding you…</p>}>
        <Await resolve={visitor}>{({ name }) => <p data-testid="greeting">{`Hello, ${name}`}</p>}</Await>
      </Suspense>
      <ul>
        {data.rows.map((row) => (
          <li key={row}>{row}</li>
        ))}
      </ul>
    </>
  );
}

const module =
  (extra: Partial<RouteModule> = {}) =>
  async (): Promise<RouteModule> => ({
    default: Greeting,
    title: "Greeting",
    loader: ({ url }) => {
      const n = (runs.get(url.href) ?? 0) + 1;
      runs.set(url.href, n);
      return { runs: n, rows: ["alpha", "beta", "gamma"] };
    },
    visitorLoader,
    cache: { maxAge: 60, query: ["test"] },
    ...extra,
  });

function Outside({ visitor }: PageProps<null, string, unknown, typeof visitorLoader>) {
  // Wrong: the visitor's data read outside every <Suspense>, so nothing of the page is shared.
  const { name } = use(visitor);
  return <h1>{name}</h1>;
}

/** Renders of Fragile: the first is the prerender, the second React's resume of it. */
let fragileRenders = 0;

function Fragile(props: PageProps<{ runs: number; rows: string[] }, string, unknown, typeof visitorLoader>) {
  fragileRenders += 1;
  if (fragileRenders === 2) throw new Error("the page failed while its holes were resumed");
  return <Greeting {...props} />;
}

/** A hole that reads a deferred value of the shared loader's beside the visitor's. */
function Noted({
  data,
  visitor,
}: PageProps<{ note: Promise<string> }, string, unknown, typeof visitorLoader>) {
  return (
    <Suspense fallback={<p>Finding you…</p>}>
      <Await resolve={visitor}>
        {({ name }) => (
          <Await resolve={data.note}>{(note) => <p data-testid="noted">{`${note}, ${name}`}</p>}</Await>
        )}
      </Await>
    </Suspense>
  );
}

/** Three holes that read the visitor, as a list with a button per row reads it. */
function Rows({
  data,
  visitor,
}: PageProps<{ runs: number; rows: string[] }, string, unknown, typeof visitorLoader>) {
  return (
    <ul>
      {data.rows.map((row) => (
        <li key={row}>
          {row}
          <Suspense fallback={null}>
            <Await resolve={visitor}>{({ name }) => <b>{`${row} for ${name}`}</b>}</Await>
          </Suspense>
        </li>
      ))}
    </ul>
  );
}

function Scripted() {
  return <div dangerouslySetInnerHTML={{ __html: "<script>window.planted = 1</script>" }} />;
}

const routes = [
  page("/greet", module()),
  page(
    "/throws",
    module({
      visitorLoader: () => {
        throw new Error("the visitor's part failed");
      },
    }),
  ),
  page("/outside", module({ default: Outside })),
  page("/uncached", module({ cache: undefined })),
  page("/hangs", module({ visitorLoader: () => new Promise<never>(() => {}) })),
  page("/scripted", module({ default: Scripted })),
  page("/fragile", module({ default: Fragile })),
  page("/rows", module({ default: Rows })),
  page("/noted", module({ default: Noted, loader: () => ({ note: Promise.resolve("A shared note") }) })),
];

const { app, send, take } = recordedApp(routes);
const fresh = () => `test=${crypto.randomUUID()}`;
const as = (name: string) => ({ headers: { Cookie: `name=${name}` } });

/** The stored shell of `path` (with its query), as the edge cache holds it. */
async function storedShell(path: string): Promise<Response | undefined> {
  const key = cacheKey(new URL(path, "http://localhost"), "html", cacheGeneration(manifest.build, env));
  return (caches as unknown as { default: Cache }).default.match(key);
}

describe("a page with a per-visitor loader", () => {
  it("gives two visitors their own hole from one stored shell that holds neither", async () => {
    const path = `/greet?${fresh()}`;
    const ada = await send(path, as("Ada"));
    const bob = await send(path, as("Bob"));
    // The third visitor's shell is read as the isolate kept it from Bob's: the prelude alone.
    const cy = await send(path, as("Cy"));
    expect(cy.body).toContain("Hello, Cy");
    expect(cy.body).toContain("Rows (render 1)");
    expect(cy.body.match(/<\/html>/g)).toHaveLength(1);
    expect(cy.lines[0]).toMatchObject({ cache: "shell", status: 200 });
    expect(ada.response.status).toBe(200);
    expect(ada.body).toContain("Hello, Ada");
    expect(bob.body).toContain("Hello, Bob");
    expect(bob.body).not.toContain("Ada");
    // Rendered once: Bob's page is Ada's shell, resumed.
    expect(bob.body).toContain("Rows (render 1)");
    expect(ada.lines[0]).toMatchObject({ cache: "miss" });
    expect(bob.lines[0]).toMatchObject({ cache: "shell", status: 200 });
    expect(Object.keys(bob.lines[0]!.timings)).toEqual(["match", "visitor", "cache", "resume"]);
    const stored = await (await storedShell(path))!.text();
    expect(stored).toContain("Finding you…");
    expect(stored).not.toMatch(/Ada|Bob|stranger/);
    // Each answer is one whole document.
    for (const { body } of [ada, bob]) {
      expect(body.startsWith("<!DOCTYPE html>")).toBe(true);
      expect(body.match(/<\/html>/g)).toHaveLength(1);
    }
  });

  it("writes the visitor's value once, ahead of the holes that read it, however many there are", async () => {
    const path = `/rows?${fresh()}`;
    await send(path, as("Ada"));
    const { body, lines } = await send(path, as("Bob"));
    expect(lines[0]).toMatchObject({ cache: "shell", status: 200 });
    for (const row of ["alpha", "beta", "gamma"]) expect(body).toContain(`${row} for Bob`);
    const scripts = [
      ...body.matchAll(/<script type="application\/json" data-deferred="\$visitor"[^>]*>([^<]*)<\/script>/g),
    ];
    // One in all: the holes carry none of their own, and the page data tells the browser so.
    expect(scripts.map(([, value]) => value)).toEqual(['{"value":{"name":"Bob"}}']);
    expect(scripts[0]!.index).toBeLessThan(body.indexOf('<div hidden id="S:'));
    expect(body.match(/<div hidden id="S:/g)).toHaveLength(3);
    expect(body).toContain('"visitor":{"$deferred":"$visitor","ahead":true}');
  });

  it("writes a shared deferred value a hole reads in the hole, where the browser's render of it has it", async () => {
    const path = `/noted?${fresh()}`;
    await send(path, as("Ada"));
    const { body, lines } = await send(path, as("Bob"));
    expect(lines[0]).toMatchObject({ cache: "shell", status: 200 });
    // The embedded page data has the note pending (the browser reads it from the hole's script).
    expect(body).toContain('"note":{"$deferred":"note"}');
    const hole = /<div hidden id="S:0">(.*?)<\/div>/.exec(body)![1]!;
    expect(hole).toContain('<p data-testid="noted">A shared note, Bob</p>');
    expect(hole).toMatch(
      /<script type="application\/json" data-deferred="note" nonce="[^"]+">\{"value":"A shared note"\}<\/script>/,
    );
  });

  it("stamps every nonce of a resumed answer with its CSP header's, and never the placeholder", async () => {
    const path = `/greet?${fresh()}`;
    await send(path, as("Ada"));
    const stored = (await storedShell(path))!;
    const placeholder = stored.headers.get("X-Verge-Placeholder")!;
    await stored.body?.cancel();
    const { response, body } = await send(path, as("Bob"));
    const nonce = cspNonce(response)!;
    expect(nonce).not.toBe(placeholder);
    const scripts = body.match(/<script\b[^>]*>/g)!;
    // The timing script, the entry module, the page data, and the hole's data and its swap.
    expect(scripts.length).toBeGreaterThanOrEqual(5);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
    expect([...body.matchAll(/nonce="([^"]*)"/g)].map((m) => m[1])).toEqual(expect.arrayContaining([nonce]));
    expect(new Set([...body.matchAll(/nonce="([^"]*)"/g)].map((m) => m[1]))).toEqual(new Set([nonce]));
    expect(body).not.toContain(placeholder);
  });

  it("sends the visitor's own data with page data, the shared part from the cache", async () => {
    const path = `/greet?${fresh()}`;
    const headers = (name: string) => ({ headers: { [PAGE_DATA_HEADER]: "1", Cookie: `name=${name}` } });
    const ada = await send(path, headers("Ada"));
    const bob = await send(path, headers("Bob"));
    expect(bob.lines[0]).toMatchObject({ cache: "hit" });
    for (const [answer, name] of [
      [ada, "Ada"],
      [bob, "Bob"],
    ] as const) {
      const json = JSON.parse(answer.body);
      expect(json.data).toEqual({ runs: 1, rows: ["alpha", "beta", "gamma"] });
      expect(json.visitor).toEqual({ $deferred: "$visitor", settled: { value: { name } } });
    }
  });

  it("shows a hole that throws in place, with the digest its log line has", async () => {
    const { response, body, lines } = await send(`/throws?${fresh()}`);
    expect(response.status).toBe(200);
    expect(body).toContain("Rows (render 1)");
    const digest = /data-testid="digest">([^<]+)</.exec(body)?.[1];
    expect(digest).toMatch(/^[0-9a-z]{11}$/);
    expect(lines[0]).toMatchObject({ digest, message: "the visitor's part failed" });
    expect(body).not.toContain("the visitor&#x27;s part failed");
  });

  it("switches a hole to the browser's rendering, with its line's digest, when the page fails as resumed", async () => {
    const { response, body, lines } = await send(`/fragile?${fresh()}`, as("Ada"));
    // The shell was on its way before React resumed: the answer stands, its hole in error.
    expect(response.status).toBe(200);
    expect(body).toContain("Finding you…");
    expect(body).not.toContain("Hello, Ada");
    const digest = /\$RX\("B:0","([0-9a-z]+)"/.exec(body)?.[1];
    expect(lines[0]).toMatchObject({
      level: "error",
      digest,
      message: "the page failed while its holes were resumed",
    });
    expect(body.match(/<\/html>/g)).toHaveLength(1);
  });

  it("renders whole, its hole streamed in the same answer, when the page is not cached", async () => {
    const first = await send(`/uncached?${fresh()}`, as("Ada"));
    const second = await send(`/uncached`, as("Bob"));
    expect(first.body).toContain("Hello, Ada");
    expect(second.body).toContain("Hello, Bob");
    expect(second.body).toContain("Rows (render 1)"); // its own render: the loader ran for it
    expect(second.lines[0]).not.toHaveProperty("cache");
    expect(Object.keys(second.lines[0]!.timings).sort()).toEqual(["loader", "match", "shell", "visitor"]);
  });

  it("ends a hole whose data never comes at the render deadline, with a digest in its place", async () => {
    const vars = { DEFERRED_TIMEOUT_MS: "100" } as Partial<Env>;
    const path = `/hangs?${fresh()}`;
    await send(path, {}, vars);
    const { response, body, lines } = await send(path, {}, vars);
    expect(response.status).toBe(200);
    expect(lines[0]).toMatchObject({ cache: "shell" });
    expect(lines[0]!.digest).toMatch(/^[0-9a-z]{11}$/);
    expect(body).toContain(`data-testid="digest">${lines[0]!.digest}<`);
    expect(body.endsWith("</body></html>")).toBe(true);
  });

  it("ends at once for a visitor who leaves before their data comes, nothing reported", async () => {
    const path = `/hangs?${fresh()}`;
    await send(path, {}, { DEFERRED_TIMEOUT_MS: "100" } as Partial<Env>);
    // The data would come at the deadline, 10 s away: the visitor leaves after the prelude.
    const ctx = createExecutionContext();
    const left = new AbortController();
    const response = await app.fetch(
      new Request(`http://localhost${path}`, { signal: left.signal }),
      env,
      ctx,
    );
    const reader = response.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain("<!DOCTYPE html>");
    left.abort();
    const ended = Promise.all([reader.cancel(), waitOnExecutionContext(ctx)]).then(() => "ended");
    const late = new Promise((resolve) => setTimeout(() => resolve("still waiting"), 3000));
    expect(await Promise.race([ended, late])).toBe("ended");
    const { lines, reports } = take();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ cache: "shell", status: 200 });
    expect(reports).toEqual([]);
  });

  it("fails loudly when the page reads the visitor's data outside <Suspense>", async () => {
    const { response, body, lines } = await send(`/outside?${fresh()}`);
    expect(response.status).toBe(500);
    expect(body).toContain("Application error");
    expect(lines[0]!.message).toMatch(/reads its visitor data outside <Suspense>/);
  });

  it("never stamps a script the page inserted as markup, and does not store its shell", async () => {
    const path = `/scripted?${fresh()}`;
    const { response, body, lines } = await send(path);
    expect(response.status).toBe(200);
    expect(body).toContain("<script>window.planted = 1</script>");
    expect(lines[0]).toMatchObject({ shellRefused: "a script without the nonce" });
    expect(await storedShell(path)).toBeUndefined();
  });

  it("does not resume a shell of another build or renderer, or one whose state is cut: it renders anew", async () => {
    for (const [why, change] of [
      ["another build", (headers: Headers, text: string) => (headers.set("X-Verge-Build", "0ther"), text)],
      // React's edge build keys useActionState with another hash than its Node build.
      [
        "another renderer",
        (headers: Headers, text: string) => (headers.set("X-Verge-Renderer", "edge 19.3.1"), text),
      ],
      ["cut short", (headers: Headers, text: string) => (headers.set("X-Verge-Length", "10"), text)],
      ["unreadable state", (headers: Headers, text: string) => text.slice(0, -20) + " ".repeat(20)],
    ] as const) {
      const path = `/greet?${fresh()}`;
      await send(path, as("Ada"));
      const stored = (await storedShell(path))!;
      const headers = new Headers(stored.headers);
      const text = change(headers, await stored.text());
      const key = cacheKey(new URL(path, "http://localhost"), "html", cacheGeneration(manifest.build, env));
      await (caches as unknown as { default: Cache }).default.put(key, new Response(text, { headers }));
      const again = await send(path, as("Bob"));
      expect(again.response.status, why).toBe(200);
      expect(again.lines[0], why).toMatchObject({ cache: "miss", shellRefused: why });
      expect(again.body, why).toContain("Rows (render 2)");
      expect(again.body, why).toContain("Hello, Bob");
      expect(again.body.match(/<\/html>/g), why).toHaveLength(1);
    }
  });
});

describe("a stored shell React is given", () => {
  async function storedThen(edit: (state: Record<string, unknown>) => unknown) {
    const path = `/greet?${fresh()}`;
    await send(path, as("Ada"));
    const key = cacheKey(new URL(path, "http://localhost"), "html", cacheGeneration(manifest.build, env));
    const edited = await withPostponed((await storedShell(path))!, edit);
    await (caches as unknown as { default: Cache }).default.put(key, edited);
    return send(path, as("Bob"));
  }

  it("is not resumed when its state is not the shape React writes: it renders anew", async () => {
    const again = await storedThen((state) => ({ ...state, replayNodes: "none" }));
    expect(again.lines[0]).toMatchObject({ cache: "miss", shellRefused: "unreadable state" });
    expect(again.body).toContain("Hello, Bob");
  });

  it("ends the document with a digest in the hole when React gives up on it after the shell", async () => {
    const { response, body, lines } = await storedThen((state) => ({ ...state, replayNodes: [null] }));
    expect(response.status).toBe(200);
    expect(lines[0]).toMatchObject({ level: "error", cache: "shell" });
    expect(body).toContain("Finding you…");
    // The visitor's value as an error where the page reads it: the browser renders the hole, and
    // shows the route error view with this digest.
    const script =
      /<script type="application\/json" data-deferred="\$visitor" nonce="([^"]+)">([^<]*)<\/script><\/body><\/html>$/.exec(
        body,
      );
    expect(script?.[1]).toBe(cspNonce(response));
    const { digest } = (JSON.parse(script![2]!) as { error: { digest: string } }).error;
    const line = lines[0] as { digest: string; errors?: { digest: string }[] };
    expect([line.digest, ...(line.errors ?? []).map((error) => error.digest)]).toContain(digest);
    expect(body.match(/<\/html>/g)).toHaveLength(1);
  });
});

describe("the guestbook's shell", () => {
  it("gives each visitor a form key of their own, and stores none", async () => {
    const keys = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const body = await (await request("/guestbook?page=1")).text();
      const input = new RegExp(
        `<input type="hidden" form="([^"]+)" name="${IDEMPOTENCY_FIELD}" value="([^"]+)"`,
      ).exec(body);
      expect(input, body).not.toBeNull();
      expect(body).toContain(`<form id="${input![1]}"`);
      keys.add(input![2]!);
    }
    expect(keys.size).toBe(3);
    const key = cacheKey(
      new URL("/guestbook?page=1", "http://localhost"),
      "html",
      cacheGeneration(manifest.build, env),
    );
    const stored = await (caches as unknown as { default: Cache }).default.match(key);
    const text = await stored!.text();
    for (const formKey of keys) expect(text).not.toContain(formKey);
    expect(text).not.toContain(`name="${IDEMPOTENCY_FIELD}"`);
  });
});
