// Middleware as a product writes it, on pages and endpoints: it knows the request's kind, an
// endpoint may list its own, and each calls next() once.
import { describe, expect, it } from "vitest";
import { page, type RouteModule } from "../../src/shared/route-module";
import { endpoint, type EndpointModule } from "../../src/shared/endpoint";
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

const routes = [
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
