// The apps the worker tests run: the product as src/worker.ts builds it, and the tests' own app
// (test/fixture-app: its own routes on the same runtime).
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { createApp, type AppDeps } from "../../src/server/create-app";
import type { ClientManifest } from "../../src/server/manifest";
import type { RouteTable } from "../../src/shared/route-module";
import type { ErrorReport } from "../../src/server/context";
import { app as product } from "../../src/app";
import clientManifest from "virtual:verge/manifest";
import { fixtureApp } from "../fixture-app/app";

type Hooks = Pick<AppDeps, "reportError" | "log">;

/** Both apps' client manifest here: verge/vite's for the worker tests (no build, mode production). */
export const manifest: ClientManifest = clientManifest;
export const fixtureClientManifest: ClientManifest = clientManifest;

/** The product, with the given reporting hook and log writer. */
export function productApp(hooks: Hooks) {
  return createApp({ ...product, manifest, ...hooks });
}

/** An app of a test's own: its routes, with the product's layout and client manifest. */
export function appWith(routes: RouteTable, hooks: Hooks) {
  return createApp({ ...product, routes, manifest, ...hooks });
}

/** The tests' own app (twins, echo, ...), with the given hooks (default: report nothing). */
export function testApp(hooks: Hooks = { reportError: () => {} }) {
  return createApp({ ...fixtureApp, manifest: fixtureClientManifest, ...hooks });
}

const fixture = testApp();

/** Calls the tests' app through workerd with a path or a full URL, as html.ts's request() calls the product. */
export async function fixtureRequest(pathOrUrl: string, init?: RequestInit): Promise<Response> {
  const url = pathOrUrl.startsWith("http") ? pathOrUrl : `http://localhost${pathOrUrl}`;
  const ctx = createExecutionContext();
  const response = await fixture.fetch(new Request(url, init), env, ctx);
  void waitOnExecutionContext(ctx);
  return response;
}

/**
 * An app of a test's own routes (or the tests' own app, `fixture`) that records what it would send
 * out, and a way to call it: the answer, its whole body, the log lines and the error reports,
 * after waitUntil work is done.
 */
export function recordedApp(routes: RouteTable | "fixture") {
  const reports: ErrorReport[] = [];
  const written: string[] = [];
  const hooks: Hooks = {
    reportError: (report) => void reports.push(report),
    log: (line) => written.push(line),
  };
  const app = routes === "fixture" ? testApp(hooks) : appWith(routes, hooks);
  /** The log lines and reports written since the last take. */
  const take = () => ({
    lines: written.splice(0).map((line) => JSON.parse(line) as Record<string, any>),
    reports: reports.splice(0),
  });
  async function send(path: string, init: RequestInit = {}, vars: Partial<Env> = {}) {
    const ctx = createExecutionContext();
    const response = await app.fetch(new Request(`http://localhost${path}`, init), { ...env, ...vars }, ctx);
    const body = await response.text();
    await waitOnExecutionContext(ctx);
    return { response, body, ...take() };
  }
  return { app, send, take };
}
