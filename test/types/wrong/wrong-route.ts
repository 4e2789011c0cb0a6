// Deliberately wrong (test/node/type-errors.test.ts): a page expecting :slug on a route giving :id,
// reported at its page() line (5), not at Routes<>.
import { page, type Routes } from "verge";

export const routes = [page("/users/:id", () => import("../pages/post"))];

export type Checked = Routes<typeof routes>;
