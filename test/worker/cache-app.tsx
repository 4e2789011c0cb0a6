// A small app for the edge-cache tests: pages that opt in, each counting its loader's runs, so a
// test can tell a render from a cache hit; and helpers to visit it the way workerd serves it.
import { Suspense } from "react";
import { onTestFinished, vi } from "vitest";
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { createApp } from "../../src/server/create-app";
import type { ClientManifest } from "../../src/server/manifest";
import { cacheGeneration, cacheKey, PLACEHOLDER_HEADER, type CachedKind } from "../../src/server/cache-entry";
import { app as product } from "../../src/app";
import { page, type PageProps, type RouteModule } from "../../src/shared/route-module";
import { redirect } from "../../src/shared/redirect";
import { invalid } from "../../src/shared/invalid";
import { Await } from "../../src/shared/await";
import { useNonce } from "../../src/shared/nonce";
import { Form } from "../../src/shared/form";
import { newIdempotencyKey } from "../../src/shared/form-keys";
import { manifest } from "./apps";
import { ORIGIN } from "./html";

/** Loader runs per page URL (path and query). */
const runs = new Map<string, number>();
const count = (url: URL) => {
  const n = (runs.get(url.href) ?? 0) + 1;
  runs.set(url.href, n);
  return n;
};

const Counted = ({ data }: PageProps<{ n: number }>) => <h1>{`Render ${data.n}`}</h1>;

/**
 * A page that opts in, its loader counted; `extra` adds to (or overrides) its module. It reads
 * `test` (each test's own entry: fresh()) and `page`; any other parameter is ignored.
 */
function cached(extra: Partial<RouteModule> = {}, maxAge = 60, staleWhileRevalidate = 0) {
  return async (): Promise<RouteModule> => ({
    default: Counted,
    title: "Counted",
    loader: ({ url }) => ({ n: count(url) }),
    cache: { maxAge, staleWhileRevalidate, query: ["test", "page"] },
    ...extra,
  });
}

/** What a cached page's loader saw of the visitor: it must be nothing. */
function Credentials({
  data,
}: PageProps<{ cookie: string | null; authorization: string | null; url: string }>) {
  return (
    <p data-testid="seen">{`cookie=${data.cookie} authorization=${data.authorization} url=${data.url}`}</p>
  );
}

function Keyed({ data }: PageProps<{ formKey: string }>) {
  return (
    <Form actionName="touch" idempotencyKey={data.formKey}>
      <button type="submit">Send</button>
    </Form>
  );
}

function Sectioned({ data }: PageProps<{ n: number; later: Promise<string> }>) {
  return (
    <Suspense fallback={<p>Waiting</p>}>
      <Await resolve={data.later}>{(value) => <p data-testid="later">{value}</p>}</Await>
    </Suspense>
  );
}

/**
 * What the /changing pages show, and their action changes. While `hold()` is on, their streamed
 * section waits for `release()`: a render in progress when an action runs.
 */
export const version = {
  now: 1,
  held: [] as (() => void)[],
  holding: false,
  hold() {
    this.holding = true;
  },
  release() {
    this.holding = false;
    for (const resolve of this.held.splice(0)) resolve();
  },
};

function Changing({ data }: PageProps<{ version: number; later: Promise<string> }>) {
  return (
    <>
      <h1>{`Version ${data.version}`}</h1>
      <Suspense fallback={<p>Waiting</p>}>
        <Await resolve={data.later}>{(value) => <p>{value}</p>}</Await>
      </Suspense>
    </>
  );
}

const changing = (maxAge: number, staleWhileRevalidate: number) =>
  cached(
    {
      default: Changing,
      loader: () => ({
        version: version.now,
        later: version.holding
          ? new Promise<string>((resolve) => version.held.push(() => resolve("released")))
          : Promise.resolve("at once"),
      }),
      actions: { bump: () => ((version.now += 1), { bumped: true }) },
    },
    maxAge,
    staleWhileRevalidate,
  );

/** A page rendering a script with a nonce of its own: the restamp must leave it alone. */
const OwnScript = () => (
  <script type="application/json" nonce={OWN_NONCE} dangerouslySetInnerHTML={{ __html: "{}" }} />
);
export const OWN_NONCE = "a-nonce-the-page-chose-itself";

/** The nonces /stale-nonce was rendered with, in order. */
export const renderedNonces: string[] = [];
function RecordsNonce() {
  renderedNonces.push(useNonce() ?? "");
  return <p>Rendered</p>;
}

/**
 * What a visitor supplies to /planted, handed over when a test gives it: a render's section waits
 * for it, so a test can read the nonce a response carries first, as a visitor could.
 */
export const plant = {
  given: undefined as string | undefined,
  waiting: undefined as ((html: string) => void) | undefined,
  give(html: string) {
    if (this.waiting) this.waiting(html);
    else this.given = html;
    this.waiting = undefined;
  },
  take(): Promise<string> {
    const given = this.given;
    this.given = undefined;
    return given === undefined ? new Promise((resolve) => (this.waiting = resolve)) : Promise.resolve(given);
  },
};

/** A page showing visitor-supplied markup in a streamed section, as text and as raw HTML. */
function Planted({ data }: PageProps<{ later: Promise<string> }>) {
  return (
    <Suspense fallback={<p>Waiting</p>}>
      <Await resolve={data.later}>
        {(html) => (
          <>
            <p data-testid="said">{html}</p>
            <div data-testid="shown" dangerouslySetInnerHTML={{ __html: html }} />
          </>
        )}
      </Await>
    </Suspense>
  );
}
const planted = (maxAge: number, staleWhileRevalidate: number) =>
  cached({ default: Planted, loader: () => ({ later: plant.take() }) }, maxAge, staleWhileRevalidate);

/** Rows for /large: a document of over 400 KB, page data included. */
const ROWS = Array.from({ length: 4000 }, (_, i) => ({
  id: i + 1,
  name: `Row ${i + 1}`,
  note: "x".repeat(i % 40),
}));

/** A large page: a table the render streams in many chunks, then a section streamed after it. */
function Large({ data }: PageProps<{ rows: typeof ROWS; later: Promise<string> }>) {
  return (
    <>
      <table>
        <tbody>
          {data.rows.map((row) => (
            <tr key={row.id}>
              <td>{row.id}</td>
              <td>{row.name}</td>
              <td>{row.note}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <Suspense fallback={<p>Waiting</p>}>
        <Await resolve={data.later}>{(value) => <p data-testid="later">{value}</p>}</Await>
      </Suspense>
    </>
  );
}

/** A page that shows its nonce as text: only attributes are restamped, so it must not be stored. */
const NonceInText = () => <p data-testid="shown">{useNonce()}</p>;

// prettier-ignore
const routes = [
  page("/counted", cached()),
  page("/stale", cached({}, 1, 60)),
  page("/acted", cached({ actions: { touch: () => ({ done: true }), refuse: () => invalid({ name: "Refused" }) } })),
  page("/keyed", cached({ default: Keyed, loader: ({ url }) => ({ n: count(url), formKey: newIdempotencyKey() }) })),
  // A key of the product's own shape, not a UUID: issued all the same.
  page("/keyed-own", cached({ default: Keyed, loader: ({ url }) => ({
    n: count(url),
    formKey: newIdempotencyKey(() => `form-${Math.random().toString(36).slice(2)}`),
  }) })),
  page("/own-script", cached({ default: OwnScript })),
  page("/credentials", cached({ default: Credentials, loader: ({ request }) => ({
    cookie: request.headers.get("Cookie"),
    authorization: request.headers.get("Authorization"),
    url: request.url,
  }) })),
  page("/nonce-in-text", cached({ default: NonceInText })),
  page("/sent-away", cached({ loader: () => redirect("/counted") })),
  // The first render of each URL fails: its loader throws, or its streamed section does.
  page("/failing-loader", cached({ loader: ({ url }) => {
    const n = count(url);
    if (n === 1) throw new Error("first render fails");
    return { n };
  } })),
  page("/failing-section", cached({ default: Sectioned, loader: ({ url }) => {
    const n = count(url);
    return { n, later: n === 1 ? Promise.reject(new Error("first section fails")) : Promise.resolve(`ok ${n}`) };
  } })),
  page("/uncached", cached({ cache: undefined })),
  page("/large", cached({ default: Large, loader: () => ({
    rows: ROWS,
    later: new Promise<string>((resolve) => setTimeout(() => resolve("streamed after the table"), 0)),
  }) })),
  page("/stale-nonce", cached({ default: RecordsNonce }, 1, 60)),
  page("/changing", changing(60, 0)),
  page("/planted", planted(60, 0)),
  page("/planted-stale", planted(1, 60)),
  page("/changing-stale", changing(1, 60)),
];

export interface Visit {
  response: Response;
  body: string;
  /** The request's log line. */
  line: Record<string, unknown>;
}

/**
 * The cache tests' app, as a given build (default: the product's client build), as deployed or as
 * `vite dev` serves it (`mode`).
 */
/**
 * Moves the runtime's clock on by `ms` at once, as waiting would (an entry's age is read from
 * Date): Date alone is faked, timers stay real, and the clock is real again when the test ends.
 */
export function clockForward(ms: number): void {
  const now = Date.now();
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(now + ms);
  onTestFinished(() => void vi.useRealTimers());
}

export function cacheApp(build = manifest.build, mode: ClientManifest["mode"] = manifest.mode) {
  const lines: Record<string, unknown>[] = [];
  const app = createApp({
    ...product,
    routes,
    manifest: { ...manifest, build, mode },
    reportError: () => {},
    log: (line) => lines.push(JSON.parse(line) as Record<string, unknown>),
  });
  /**
   * One request through workerd, answered but its body not yet read. `finish` reads it and, unless
   * told otherwise, waits for the request's background work (storing, refreshing); `settled` waits
   * for that work alone.
   */
  async function start(path: string, init: RequestInit = {}, vars: Partial<Env> = {}) {
    const ctx = createExecutionContext();
    const response = await app.fetch(new Request(`${ORIGIN}${path}`, init), { ...env, ...vars }, ctx);
    const settled = () => waitOnExecutionContext(ctx);
    async function finish({ background = true } = {}): Promise<Visit> {
      const body = await response.text();
      if (background) await settled();
      return { response, body, line: lines.at(-1)! };
    }
    return { response, finish, settled };
  }
  /** One request through workerd, its body read and its background work (storing, refreshing) done. */
  async function visit(path: string, init: RequestInit = {}, vars: Partial<Env> = {}): Promise<Visit> {
    return (await start(path, init, vars)).finish();
  }
  return { visit, start, lines };
}

/** A path of its own for each test: the cache outlives a test (not a test file). */
export const fresh = (path: string) =>
  `${path}${path.includes("?") ? "&" : "?"}test=${crypto.randomUUID().slice(0, 8)}`;

/** The placeholder an entry was stored with (read straight from the cache, as no visitor can). */
export async function storedPlaceholder(path: string, kind: CachedKind = "html", build = manifest.build) {
  const key = cacheKey(new URL(path, ORIGIN), kind, cacheGeneration(build, env));
  const entry = await (caches as unknown as { default: Cache }).default.match(key);
  await entry?.body?.cancel();
  return entry?.headers.get(PLACEHOLDER_HEADER) ?? null;
}

/**
 * Puts `change(body)` back in place of a stored entry's body, under the same headers: an entry
 * that is no longer the one stored (cut short, or grown), as a visitor never could make it.
 */
export async function alterStored(
  path: string,
  change: (body: Uint8Array<ArrayBuffer>) => Uint8Array<ArrayBuffer>,
) {
  const cache = (caches as unknown as { default: Cache }).default;
  const key = cacheKey(new URL(path, ORIGIN), "html", cacheGeneration(manifest.build, env));
  const entry = await cache.match(key);
  if (!entry) throw new Error(`nothing stored for ${path}`);
  const headers = new Headers(entry.headers);
  headers.delete("Content-Length");
  await cache.put(key, new Response(change(new Uint8Array(await entry.arrayBuffer())), { headers }));
}

export const pageData = { "X-Page-Data": "1" };
