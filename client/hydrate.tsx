// The browser runtime's start: read the page data the server embedded, load the route's
// module, and hydrate the document with the product the client entry hands over.
import { reactErrorHandlers } from "./reporter";
import { hydrateRoot } from "react-dom/client";
import { PAGE_DATA_SCRIPT_ID, type PageData } from "../src/shared/protocol";
import type { AppDefinition } from "../src/shared/route-module";
import { App, loadRoute } from "./app";
import { startVitals } from "./vitals";

export async function hydrate(app: AppDefinition): Promise<void> {
  const pageJson = document.getElementById(PAGE_DATA_SCRIPT_ID)?.textContent ?? "null";
  const page = JSON.parse(pageJson) as PageData;
  const initial = await loadRoute(page);
  hydrateRoot(document, <App app={app} initial={initial} pageJson={pageJson} />, reactErrorHandlers);
  startVitals(page);
}
