// Starts the fake Sentry ingest for the workerd tests (they reach it over HTTP: `inject("ingestURL")`).
import type { TestProject } from "vitest/node";
import { startFakeIngest } from "../support/fake-ingest";

export default async function setup(project: TestProject) {
  const ingest = await startFakeIngest();
  project.provide("ingestURL", ingest.url);
  return () => ingest.close();
}
