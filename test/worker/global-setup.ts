// Before the workerd tests: the fake Sentry ingest (reached over HTTP: `inject("ingestURL")`), and the watch on workerd's output
// for uncaught rejections (`inject("uncaughtURL")`, read after each file by no-uncaught.ts).
import type { TestProject } from "vitest/node";
import { startFakeIngest } from "../support/fake-ingest";
import { watchRuntimeOutput } from "../support/runtime-output";

declare module "vitest" {
  export interface ProvidedContext {
    /** GET: the uncaught rejections workerd printed since the last GET (runtime-output.ts). */
    uncaughtURL: string;
  }
}

export default async function setup(project: TestProject) {
  const ingest = await startFakeIngest();
  const output = await watchRuntimeOutput();
  project.provide("ingestURL", ingest.url);
  project.provide("uncaughtURL", output.url);
  return async () => {
    await ingest.close();
    const late = output.unreported();
    await output.close();
    // Printed after the last file's check: vitest's teardown cannot fail a test, so the run fails.
    if (late.length > 0) {
      process.exitCode = 1;
      console.error(`workerd printed uncaught rejections after the last test file:\n${late.join("\n")}`);
    }
  };
}
