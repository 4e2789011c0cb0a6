// Which of the browser tests' servers a test file talks to besides the product's preview, read from
// its source: a run of some files starts only those (global-setup.ts), each file waits only for its
// own (servers-ready.ts), and files that need the preview alone run first (sequencer.ts).
import { readFileSync } from "node:fs";

export interface Uses {
  /** The tests' own app (test/fixture-app). */
  fixture: boolean;
  /** `npm run dev`, in a copy of the project. */
  dev: boolean;
}

const USES = {
  fixture: /\bfixtureURL\b|\bTEST_APP\b/,
  dev: /\bdevURL\b|\bdevRoot\b|serverPids/,
};

/** The servers a test file's source names. */
export function usesOf(source: string): Uses {
  return { fixture: USES.fixture.test(source), dev: USES.dev.test(source) };
}

/** The servers the test file at `file` names. */
export const usesOfFile = (file: string): Uses => usesOf(readFileSync(file, "utf8"));
