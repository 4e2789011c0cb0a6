// The route table, shared by the worker and the browser. A new page is one file
// under ./pages and one line here; the first matching pattern wins. Keep each line
// in this exact form: the client build reads it to map routes to their chunks.
import { page } from "verge";

// prettier-ignore
export const routes = [
  page("/", () => import("./pages/home")),
  page("/guestbook", () => import("./pages/guestbook")),
  page("/slow", () => import("./pages/slow")),
  page("/errors", () => import("./pages/errors")),
  page("/errors/loader", () => import("./pages/errors-loader")),
  page("/errors/render", () => import("./pages/errors-render")),
  page("/errors/stream", () => import("./pages/errors-stream")),
];
