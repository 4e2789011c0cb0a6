// The route table, shared by the worker and the browser. A new page is one file under ./pages
// and one line here (an endpoint: one file under ./endpoints and an `endpoint` line); the first matching pattern wins. Each page the table imports gets its own
// client chunk (Vite splits at every import()), so write it as you like.
import { endpoint, layout, page, type Routes } from "verge";

export const routes = [
  page("/", () => import("./pages/home")),
  page("/guestbook", () => import("./pages/guestbook")),
  page("/slow", () => import("./pages/slow")),
  page("/errors", () => import("./pages/errors")),
  page("/errors/loader", () => import("./pages/errors-loader")),
  page("/errors/render", () => import("./pages/errors-render")),
  page("/errors/stream", () => import("./pages/errors-stream")),
  page("/sign-in", () => import("./pages/sign-in")),
  endpoint("/sign-in/:step", () => import("./endpoints/sign-in")),
  // Signed in only: the layout's middleware sends anyone else to /sign-in.
  ...layout("account", () => import("./layouts/account"), [
    page("/account", () => import("./pages/account")),
    page("/account/passkeys", () => import("./pages/account-passkeys")),
  ]),
  // Signed in only too, by its own middleware: a signed-out client gets 401 JSON.
  endpoint("/account/passkeys/:step", () => import("./endpoints/account-passkeys")),
  endpoint("/robots.txt", () => import("./endpoints/robots")),
  endpoint("/sitemap.xml", () => import("./endpoints/sitemap")),
  endpoint("/api/entries", () => import("./endpoints/api-entries")),
  endpoint("/hooks/moderation", () => import("./endpoints/moderation")),
];

// Tells verge the table: href() takes only its patterns, each with its params, and Routes<>
// checks each page module against its pattern.
declare module "verge" {
  interface Register {
    routes: Routes<typeof routes>;
  }
}
