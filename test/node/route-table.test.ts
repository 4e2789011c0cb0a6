// The client build learns which chunk serves which route from the route table itself, however
// the table is written: here a map of patterns spread through a helper, over several lines.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { root } from "./dist";
import { buildClient } from "../../scripts/build-client.mjs";

const dir = mkdtempSync(path.join(root, "dist/route-table-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const rel = (file: string) => path.relative(root, path.join(dir, file));
const write = (file: string, text: string) => writeFileSync(path.join(dir, file), text);

describe("the client build's route table", () => {
  it("maps each route to its page's chunk, however the table is formatted", async () => {
    write(
      "alpha.tsx",
      `export const title = "A";\nexport default function A() { return <p>alpha page text</p>; }\n`,
    );
    write(
      "beta.tsx",
      `export const title = "B";\nexport default function B() { return <p>beta page text</p>; }\n`,
    );
    write(
      "routes.ts",
      `import { page } from "verge";
const PAGES = {
  "/alpha":
    () => import("./alpha"),
  "/beta/:id": () =>
    import(
      "./beta"
    ),
};
const line = ([path, load]: [string, () => Promise<any>]) => page(path, load);
export const routes = [...Object.entries(PAGES).map(line)];
`,
    );
    write("entry.ts", `import { routes } from "./routes";\nconsole.log(routes.length);\n`);
    const manifest = await buildClient({
      entry: rel("entry.ts"),
      routes: rel("routes.ts"),
      out: rel("out"),
      log: () => {},
    });
    expect(Object.keys(manifest.routes)).toEqual(["/alpha", "/beta/:id"]);
    const chunk = (route: string) =>
      readFileSync(path.join(dir, "out/client", manifest.routes[route].module), "utf8");
    expect(chunk("/alpha")).toContain("alpha page text");
    expect(chunk("/beta/:id")).toContain("beta page text");
    expect(chunk("/alpha")).not.toContain("beta page text");
  });

  it("says which route does not load its page with import()", async () => {
    write("eager.tsx", `export const title = "E";\nexport default function E() { return null; }\n`);
    write(
      "eager-routes.ts",
      `import { page } from "verge";\nimport * as eager from "./eager";\nexport const routes = [page("/eager", async () => eager)];\n`,
    );
    write("eager-entry.ts", `import { routes } from "./eager-routes";\nconsole.log(routes.length);\n`);
    await expect(
      buildClient({
        entry: rel("eager-entry.ts"),
        routes: rel("eager-routes.ts"),
        out: rel("eager-out"),
        log: () => {},
      }),
    ).rejects.toThrow(/the route \/eager does not load its page with import\(\)/);
  });
});
