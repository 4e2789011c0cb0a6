// Deliberately wrong (test/node/type-errors.test.ts): a page expecting :slug on a route giving :id.
import { page, type Routes } from "verge";

export const routes = [page("/users/:id", () => import("../pages/post"))];

export type Checked = Routes<typeof routes>;
