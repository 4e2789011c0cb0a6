// Before each browser file: the servers it uses, of those the global setup started (global-setup.ts),
// answer, or the file fails saying which did not and where its output is. Chromium launches meanwhile, for a file
// that borrows the run's browser (useBrowser()): the two starts overlap instead of adding up.
import { readFile } from "node:fs/promises";
import { beforeAll, inject } from "vitest";
import { sharedBrowser } from "../../src/test/browser/page.ts";
import { usesOf } from "./server-uses";

beforeAll(async ({}, suite) => {
  const source = await readFile(suite.file.filepath, "utf8");
  // A failed launch is reported by the file's own useBrowser(), which borrows the same promise.
  if (source.includes("useBrowser()")) sharedBrowser({}).catch(() => {});
  // Only the servers this file names: a file on the preview alone goes on while the slower dev
  // server still starts, and one that starts its own preview (usePreview()) waits for none.
  const url = new URL(inject("serversReadyURL"));
  for (const [server, used] of Object.entries(usesOf(source))) if (used) url.searchParams.set(server, "");
  const response = await fetch(url);
  if (!response.ok) throw new Error(`The browser tests' servers did not start: ${await response.text()}`);
});
