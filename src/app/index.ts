// The product as the runtime receives it: its route table, its layout and its not-found page,
// and the head tags they give every page.
// Only the two entries (src/worker.ts, client/entry.tsx) import this folder.
import type { AppDefinition } from "verge";
import { routes } from "./routes";
import Layout, { meta } from "./layout";
import NotFound, { meta as notFoundMeta } from "./not-found";

export const app: AppDefinition = { routes, Layout, NotFound, meta, notFoundMeta };
