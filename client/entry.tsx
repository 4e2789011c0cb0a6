// The browser entry: read the page data the server embedded, load the route's
// module, and hydrate the document.
import "./styles.css";
import { reactErrorHandlers } from "./reporter";
import { hydrateRoot } from "react-dom/client";
import { PAGE_DATA_SCRIPT_ID, type PageData } from "../src/protocol";
import { App, loadModule } from "./app";

const pageJson = document.getElementById(PAGE_DATA_SCRIPT_ID)?.textContent ?? "null";
const page = JSON.parse(pageJson) as PageData;
const module = await loadModule(page);

hydrateRoot(document, <App initial={{ page, module }} pageJson={pageJson} />, reactErrorHandlers);
