// The test app as the runtime receives it: its own routes, with the product's layout.
import type { AppDefinition } from "verge";
import Layout from "../../src/app/layout";
import NotFound from "../../src/app/not-found";
import { routes } from "./routes";

export const fixtureApp: AppDefinition = { routes, Layout, NotFound };
