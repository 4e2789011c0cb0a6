// Which of the browser tests' servers a test file talks to, read from its source: a run of some files starts only those (global-setup.ts), each file waits only for its
// own (servers-ready.ts), and files that need the preview alone run first (sequencer.ts).
import { readFileSync } from "node:fs";

export interface Uses {
  /**
   * The product's preview the run serves: the project's own helpers (`./support`) or its address.
   * A file that starts its own (`usePreview()` from `verge/test/browser`, as a product's test
   * does) does not need it.
   */
  preview: boolean;
  /** The tests' own app (test/fixture-app). */
  fixture: boolean;
  /** `npm run dev`, in a copy of the project. */
  dev: boolean;
}

const USES = {
  preview: /from "\.\.?\/(e2e\/)?support"|inject\("(baseURL|logFile|ingestURL)"\)/,
  fixture: /\bfixtureURL\b|\bTEST_APP\b/,
  dev: /\bdevURL\b|\bdevRoot\b|serverPids/,
};

/** The servers a test file's source names. */
export function usesOf(source: string): Uses {
  return {
    preview: USES.preview.test(source),
    fixture: USES.fixture.test(source),
    dev: USES.dev.test(source),
  };
}

/** The servers the test file at `file` names. */
export const usesOfFile = (file: string): Uses => usesOf(readFileSync(file, "utf8"));
