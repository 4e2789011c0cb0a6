// The order of test files: vitest's own, except that the browser files that need the preview alone
// go before those that also need the tests' app or the dev server. The servers start side by side
// and the dev server is the slowest (test/e2e/global-setup.ts), so the one browser worker starts on
// the files it can run as soon as the preview answers. Vitest takes a sequencer as a class.
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { usesOfFile } from "./server-uses.ts";

/** 0 for a file on the preview alone, 1 with the tests' app, 2 with the dev server. */
function lateness(spec: TestSpecification): number {
  if (spec.project.name !== "chromium") return 0;
  const uses = usesOfFile(spec.moduleId);
  return uses.dev ? 2 : uses.fixture ? 1 : 0;
}

export default class PreviewFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const late = new Map(sorted.map((spec) => [spec, lateness(spec)]));
    // Stable: within each kind, and for every other project, vitest's order stays.
    return sorted.sort((a, b) => late.get(a)! - late.get(b)!);
  }
}
