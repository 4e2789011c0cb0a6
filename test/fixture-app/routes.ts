// The test app's route table: pages that exist only for tests (two pages sharing a title, a page
// reflecting its input), beside a few of the product's own pages, on the same runtime.
import { layout, page, type Routes } from "verge";

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
  page("/primitives", () => import("./pages/primitives")),
  page("/fetcher", () => import("./pages/fetcher")),
  page("/about", () => import("./pages/about")),
  page("/choices", () => import("./pages/choices")),
  page("/rename", () => import("./pages/rename")),
  page("/errors", () => import("../../src/app/pages/errors")),
  page("/errors/loader", () => import("../../src/app/pages/errors-loader")),
  // A page with an error view of its own, alone and below the three layouts.
  page("/own-error", () => import("./pages/own-error")),
  // Three nested layouts, each with a loader, an error view and a counter; the outer one has middleware.
  ...layout("outer", () => import("./layouts/nest-outer"), [
    page("/nest", () => import("./pages/nest-home")),
    ...layout("middle", () => import("./layouts/nest-middle"), [
      ...layout("inner", () => import("./layouts/nest-inner"), [
        page("/nest/:section/a", () => import("./pages/nest-a")),
        page("/nest/:section/b", () => import("./pages/nest-b")),
        page("/nest/:section/own", () => import("./pages/own-error")),
      ]),
    ]),
  ]),
];

/** Each page checked against its pattern (the product registers its own table; this one is checked here). */
export type FixtureRoutes = Routes<typeof routes>;
