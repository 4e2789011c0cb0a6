// Deliberately wrong (test/node/type-errors.test.ts): an endpoint expecting :slug on a route giving :id.
import { endpoint, type Routes } from "verge";

export const routes = [endpoint("/users/:id", () => import("../endpoints/post"))];

export type Checked = Routes<typeof routes>;
