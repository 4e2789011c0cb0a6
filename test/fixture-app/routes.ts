// The test app's route table: pages that exist only for tests (two pages sharing a title, a page
// reflecting its input), beside a few of the product's own pages, on the same runtime.
import { page, type Routes } from "verge";

export const routes = [
  page("/", () => import("./pages/home")),
  page("/twins", () => import("./pages/twins")),
  page("/twins/one", () => import("./pages/twins-one")),
  page("/twins/two", () => import("./pages/twins-two")),
  page("/echo", () => import("./pages/echo")),
  page("/slow", () => import("./pages/slow")),
  page("/account", () => import("./pages/account")),
  page("/schema-throws", () => import("./pages/schema-throws")),
  page("/secrets", () => import("./pages/secrets")),
  page("/styled", () => import("./pages/styled")),
  page("/errors", () => import("../../src/app/pages/errors")),
  page("/errors/loader", () => import("../../src/app/pages/errors-loader")),
];

/** Each page checked against its pattern (the product registers its own table; this one is checked here). */
export type FixtureRoutes = Routes<typeof routes>;
