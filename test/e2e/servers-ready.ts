// Before each browser file: the servers the global setup started (global-setup.ts) answer, or the
// file fails saying which did not and where its output is.
import { beforeAll, inject } from "vitest";

beforeAll(async () => {
  const response = await fetch(inject("serversReadyURL"));
  if (!response.ok) throw new Error(`The browser tests' servers did not start: ${await response.text()}`);
});
