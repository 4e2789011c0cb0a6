// The dev server keeps sources to itself: it refuses a server-only module to the browser with a
// page that names the file and the rule, never the file's contents, and serves nothing of a build
// (the worker's bundle and its map hold every server source). The project's own vite.config.ts,
// served as `npm run dev` serves it (the worker in workerd), its local state in a folder of its own.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createServer, type ViteDevServer } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { root } from "../node/dist";
import { freePort } from "../../src/test/browser/preview";
import { tempApp } from "../node/vite-app";

const SECRET = "SELECT dev_refusal_marker FROM secrets";

describe("the dev server", () => {
  const app = tempApp();
  // Outside the project: the files Vite writes there are no source of the project's.
  const cacheDir = mkdtempSync(path.join(os.tmpdir(), "verge-dev-sources-vite-"));
  let server: ViteDevServer;
  let base = "";
  beforeAll(async () => {
    app.write({
      "orders.server.ts": `export const query = ${JSON.stringify(SECRET)};\n`,
    });
    // Its own local state and inspector port, as `npm run dev -- --persist-to … --inspector-port …`.
    process.env.VERGE_LOCAL = JSON.stringify({
      vars: {},
      persistTo: path.join(app.dir, "state"),
      inspectorPort: await freePort(),
    });
    server = await createServer({
      configFile: path.join(root, "vite.config.ts"),
      // Its own dependency cache: the browser tests' `npm run dev` optimizes into the project's
      // node_modules/.vite meanwhile, and two optimizers in one folder delete each other's files.
      cacheDir,
      logLevel: "silent",
      server: { port: 0, host: "127.0.0.1" },
    });
    await server.listen();
    base = server.resolvedUrls!.local[0]!.replace(/\/$/, "");
  });
  afterAll(async () => {
    await server?.close();
    app.remove();
    rmSync(cacheDir, { recursive: true, force: true });
  });

  const file = () => app.rel("orders.server.ts");
  const asked = () => [
    `/${file()}`,
    `/${file()}?import`,
    `/${file()}?raw`,
    `/@fs${path.join(root, file())}`,
    `/@fs${path.join(root, file())}?raw`,
  ];

  it("refuses a *.server.ts module by name and rule, without its contents", async () => {
    for (const url of asked()) {
      const response = await fetch(base + url);
      const body = await response.text();
      expect(response.status, url).toBeGreaterThanOrEqual(400);
      expect(body, url).toContain(file());
      expect(body, url).toContain("server-only");
      expect(body, url).not.toContain("dev_refusal_marker");
    }
  });

  it("refuses a module of the server runtime (src/server/) the same way", async () => {
    const response = await fetch(`${base}/src/server/relay.ts`);
    const body = await response.text();
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(body).toContain("src/server/relay.ts is server-only");
    expect(body).not.toContain("envelope");
  });

  it("answers 404 for anything of a build: the worker's bundle, its map, the build report", async () => {
    // The build the node tests read: these files exist, and the dev server must not serve them.
    for (const built of ["dist/verge/index.js.map", "dist/verge/index.js", "dist/client-build.json"]) {
      expect(existsSync(path.join(root, built)), built).toBe(true);
      const response = await fetch(`${base}/${built}`);
      const body = await response.text();
      expect(response.status, built).toBe(404);
      expect(body, built).not.toContain("sourcesContent");
      const byPath = await fetch(`${base}/@fs${path.join(root, built)}`);
      expect(byPath.status, `/@fs/ ${built}`).toBeGreaterThanOrEqual(400);
      expect(await byPath.text(), built).not.toContain("sourcesContent");
    }
  });

  it("refuses ?raw, ?url and ?inline of a route module: its source holds its loader and actions", async () => {
    // Each page's own module: the browser is given it without the worker's exports, never whole.
    const page = "/src/app/pages/guestbook.tsx";
    for (const query of [
      "?raw",
      "?url",
      "?inline",
      "?import&raw",
      "?raw&import",
      "?url&import",
      "?inline&lang.css",
    ]) {
      for (const url of [page + query, `/@fs${path.join(root, page)}${query}`]) {
        const response = await fetch(base + url);
        const body = await response.text();
        expect(response.status, url).toBe(404);
        expect(body, url).not.toContain("addEntry");
        expect(body, url).not.toContain("INSERT");
      }
    }
  });

  it("serves no file outside the app's sources and assets: the schema, the package, the config", async () => {
    const files = [
      "migrations/0001_guestbook.sql",
      "migrations/0004_accounts.sql",
      "package.json",
      "package-lock.json",
      "wrangler.toml",
      "tsconfig.json",
      "README.md",
    ];
    for (const file of files) {
      expect(existsSync(path.join(root, file)), file).toBe(true);
      for (const url of [`/${file}`, `/${file}?raw`, `/${file}?import`, `/@fs${path.join(root, file)}`]) {
        const response = await fetch(base + url);
        const body = await response.text();
        expect(response.status, url).toBe(404);
        expect(body, url).not.toMatch(
          /CREATE TABLE|"devDependencies"|compatibility_date|"compilerOptions"|# verge/,
        );
      }
    }
  });

  it("still serves the app's pages and the browser's modules (the checks above are not blanket)", async () => {
    // The worker may still be starting (workerd, the first dependency scan): wait for the page.
    await expect.poll(async () => (await fetch(`${base}/`)).status, { timeout: 30_000 }).toBe(200);
    const page = await fetch(`${base}/src/app/pages/home.tsx`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("export default");
    // The entry as verge:dev serves it: Vite's client and verge's dev hooks load first.
    const entry = await (await fetch(`${base}/client/entry.tsx`)).text();
    expect(entry.indexOf('"/@vite/client"')).toBeGreaterThanOrEqual(0);
    expect(entry).toContain("/client/dev.ts");
    // A stylesheet as a module and as a file, and a dependency Vite prepared.
    expect((await fetch(`${base}/src/app/styles.css`)).status).toBe(200);
    expect((await fetch(`${base}/src/app/styles.css?direct`)).status).toBe(200);
    expect((await fetch(`${base}/@vite/client`)).status).toBe(200);
  });
});
