// Builds the tests' own app's client (test/fixture-app) into dist/fixture/, as the product's is
// built into dist/: the worker tests read its manifest, the browser tests load its chunks.
import { buildClient } from "../../scripts/build-client.mjs";

export const FIXTURE_APP = {
  entry: "test/fixture-app/client.tsx",
  routes: "test/fixture-app/routes.ts",
  out: "dist/fixture",
};

export function buildFixtureClient() {
  return buildClient({ ...FIXTURE_APP, log: () => {} });
}
