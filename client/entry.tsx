// The browser entry: hands the product (src/app/) to the client runtime, which hydrates the page.
import "../src/app/styles.css";
import "../src/app/transitions.css";
import { app } from "../src/app";
import { hydrate } from "verge/client";

await hydrate(app);
