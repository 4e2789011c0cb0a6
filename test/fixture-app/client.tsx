// The test app's browser entry: the same client runtime, handed the test app.
import "../../src/app/styles.css";
import { fixtureApp } from "./app";
import { hydrate } from "verge/client";

await hydrate(fixtureApp);
