// Before the workerd tests: the tests' own app's client build (its manifest is imported), and the
// fake Sentry ingest (reached over HTTP: `inject("ingestURL")`).
import type { TestProject } from "vitest/node";
import { startFakeIngest } from "../support/fake-ingest";
import { buildFixtureClient } from "../support/fixture-build";

export default async function setup(project: TestProject) {
  await buildFixtureClient();
  const ingest = await startFakeIngest();
  project.provide("ingestURL", ingest.url);
  return () => ingest.close();
}
