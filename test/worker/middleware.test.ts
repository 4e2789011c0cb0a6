// Middleware as a product writes it, on pages and endpoints: one call of next() each.
import { describe, expect, it } from "vitest";
import { page, type RouteModule } from "../../src/shared/route-module";
import type { Middleware } from "../../src/shared/middleware";
import { recordedApp } from "./apps";

const twice: Middleware = async function twice(_args, next) {
  await next();
  return next();
};

const routes = [
  page("/twice", async (): Promise<RouteModule> => ({
    default: () => null,
    title: "Twice",
    loader: () => ({ ran: true }),
    middleware: [twice],
  })),
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
});
