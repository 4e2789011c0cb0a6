// Middleware as a product writes it, on pages and endpoints: it knows the request's kind, an
// endpoint may list its own, and each calls next() once.
import { use, type ReactNode } from "react";
import { describe, expect, it } from "vitest";
import { page, type RouteModule } from "../../src/shared/route-module";
import { endpoint, type EndpointModule } from "../../src/shared/endpoint";
import { layout, type LayoutModule } from "../../src/shared/layouts";
import { createContext, type Middleware } from "../../src/shared/middleware";
import { recordedApp } from "./apps";

const twice: Middleware = async function twice(_args, next) {
  await next();
  return next();
};

const who = createContext<string>("who");

/** Answers with the kind it saw, as a header, and hands a name down. */
const tagKind: Middleware = async function tagKind({ kind, headers, context }, next) {
  headers.set("X-Kind", kind);
  context.set(who, "Ada");
  return next();
};

const api: EndpointModule = {
  middleware: [tagKind],
  GET: ({ context }) => Response.json({ who: context.get(who) }),
};

const explode: Middleware = function explode({ url }, next) {
  if (url.searchParams.has("boom")) throw new Error("the middleware failed");
  return next();
};

/** A layout that shows its data, and an error view that names it. */
const shell =
  (id: string, extra: Partial<LayoutModule> = {}) =>
  async (): Promise<LayoutModule> => ({
    default: ({ children, data }: { children: ReactNode; data: { id: string } }) => (
      <section>
        <h2>{`Layout ${data.id}`}</h2>
        {children}
      </section>
    ),
    loader: () => ({ id }),
    ErrorView: ({ digest }) => <p>{`Error view of ${id}: ${digest}`}</p>,
    ...extra,
  });

/** Lets everything through, failures from below included. */
const pass: Middleware = function pass(_args, next) {
  return next();
};

/** A page whose shell cannot be made: it reads its visitor data outside <Suspense> (a 500 below). */
const unshared = async (): Promise<RouteModule> => ({
  default: ({ visitor }: { visitor: Promise<unknown> }) => <p>{String(use(visitor))}</p>,
  title: "Unshared",
  loader: () => ({}),
  visitorLoader: () => "Ada",
  cache: { maxAge: 60 },
});

const plain = async (): Promise<RouteModule> => ({
  default: () => <p>The page</p>,
  title: "Plain",
  loader: () => ({ ran: true }),
});

const routes = [
  ...layout("outer", shell("outer"), [
    ...layout("inner", shell("inner", { middleware: [explode] }), [page("/layered", plain)]),
    page("/own", async () => ({ ...(await plain()), middleware: [explode] })),
  ]),
  ...layout("around", shell("around"), [
    ...layout("passing", shell("passing", { middleware: [pass] }), [page("/unshared", unshared)]),
  ]),
  page("/twice", async (): Promise<RouteModule> => ({
    default: () => null,
    title: "Twice",
    loader: () => ({ ran: true }),
    middleware: [twice],
  })),
  page("/kinds", async (): Promise<RouteModule> => ({
    default: () => null,
    title: "Kinds",
    loader: () => ({ ran: true }),
    actions: { go: () => ({ done: true }) },
    middleware: [tagKind],
  })),
  endpoint("/api/who", async () => api),
];

const { send } = recordedApp(routes);

describe("a middleware", () => {
  it("that calls next() twice fails the request with an error that says so", async () => {
    const { response, reports } = await send("/twice");
    expect(response.status).toBe(500);
    expect(String((reports[0]?.error as Error | undefined)?.message)).toMatch(
      /middleware "twice" called next\(\) twice/,
    );
  });

  it("knows the request's kind: a document, page data, an action or an endpoint", async () => {
    const kinds = await Promise.all([
      send("/kinds"),
      send("/kinds?_data=1", { headers: { "X-Page-Data": "1" } }),
      send("/kinds", {
        method: "POST",
        headers: { "X-Action": "go", "Content-Type": "application/json", Origin: "http://localhost" },
        body: "{}",
      }),
      send("/api/who"),
    ]);
    expect(kinds.map(({ response }) => response.headers.get("X-Kind"))).toEqual([
      "html",
      "data",
      "action",
      "endpoint",
    ]);
  });

  it("runs when an endpoint lists it, handing its values to the handler", async () => {
    const { response, body, lines } = await send("/api/who");
    expect(response.status).toBe(200);
    expect(JSON.parse(body)).toEqual({ who: "Ada" });
    expect(Object.keys(lines[0]!.timings)).toContain("middleware:tagKind");
  });
});

describe("a middleware's failure on a document", () => {
  it("shows the error view above the layout that listed it, inside the layouts above", async () => {
    const { response, body, lines } = await send("/layered?boom=1");
    expect(response.status).toBe(500);
    const digest = lines[0]!.digest as string;
    expect(body).toContain(`Error view of outer: ${digest}`);
    expect(body).toContain("Layout outer");
    expect(body).not.toContain("Layout inner");
    expect(body).not.toContain("The page");
  });

  it("shows a page's own middleware failure in the innermost layout's error view", async () => {
    const { response, body, lines } = await send("/own?boom=1");
    expect(response.status).toBe(500);
    expect(body).toContain(`Error view of outer: ${lines[0]!.digest}`);
    expect(body).toContain("Layout outer");
  });

  it("is not blamed for a failure from below that it let through", async () => {
    const { response, body } = await send("/unshared");
    expect(response.status).toBe(500);
    // The page's failure, answered as ever: not shown as the passing layout's own.
    expect(body).not.toContain("Error view of");
  });

  it("leaves the layouts as they are when it passes", async () => {
    const { body } = await send("/layered");
    expect(body).toContain("Layout inner");
    expect(body).toContain("The page");
  });
});
