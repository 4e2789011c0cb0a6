// Before each browser file: the servers the global setup started (global-setup.ts) answer, or the
// file fails saying which did not and where its output is. Chromium launches meanwhile, for a file
// that borrows the run's browser (useBrowser()): the two starts overlap instead of adding up.
import { readFile } from "node:fs/promises";
import { beforeAll, inject } from "vitest";
import { sharedBrowser } from "../../src/test/browser/page.ts";

beforeAll(async ({}, suite) => {
  const source = await readFile(suite.file.filepath, "utf8");
  // A failed launch is reported by the file's own useBrowser(), which borrows the same promise.
  if (source.includes("useBrowser()")) sharedBrowser({}).catch(() => {});
  const response = await fetch(inject("serversReadyURL"));
  if (!response.ok) throw new Error(`The browser tests' servers did not start: ${await response.text()}`);
});
