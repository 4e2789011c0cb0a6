// An app built like src/worker.ts but recording what it would send out: the error reports
// (instead of Sentry) and the log lines (instead of stdout).
import type { ErrorReport } from "../../src/server/context";
import { productApp } from "./apps";

export function recordingApp() {
  const reports: ErrorReport[] = [];
  const written: string[] = [];
  const app = productApp({
    reportError: (report) => void reports.push(report),
    log: (line) => written.push(line),
  });
  /** The log lines written so far, parsed. */
  const lines = () => written.map((line) => JSON.parse(line) as Record<string, unknown>);
  return { app, reports, lines };
}
