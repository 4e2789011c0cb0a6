// A first load that does not grow with the app: the example's client build again, its route table
// with 200 more pages (generated into a temporary folder), and the first load of `/` against the
// example's own (npm run build). The browser learns other routes when it needs them
// (client/discovery.ts), so the 200 lines reach no first-load chunk.
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Plugin } from "vite";
import { assetIn, readBuild, root, staticClosure } from "./dist";
import { stableGzip } from "./stable-size";
import { productionBuild, tempApp } from "./vite-app";

const EXTRA_PAGES = 200;
/** What the 200 pages may add to `/`'s first load, gzipped (issue 48). */
const GROWTH_BUDGET = 100;
const HOME = "src/app/pages/home.tsx";

const app = tempApp();
afterAll(() => app.remove());

/** The example's table, then 200 pages of their own (some with params, some below a layout). */
function generatedTable(): Record<string, string> {
  const files: Record<string, string> = {
    "layout.tsx": `export default function L({ children }: { children: React.ReactNode }) { return <div>{children}</div>; }\n`,
  };
  const lines: string[] = [];
  for (let i = 0; i < EXTRA_PAGES; i++) {
    files[`pages/p${i}.tsx`] =
      `export const title = "Generated ${i}";\nexport default function P() { return <p>Generated page ${i}</p>; }\n`;
    const pattern = i % 4 === 0 ? `/generated/${i}/:id` : `/generated/page-${i}`;
    lines.push(`  page(${JSON.stringify(pattern)}, () => import("./pages/p${i}")),`);
  }
  files["routes.ts"] = `import { layout, page } from "verge";
import { routes as example } from "${path.relative(app.dir, path.join(root, "src/app/routes")).split(path.sep).join("/")}";

export const routes = [
  ...example,
${lines.slice(0, EXTRA_PAGES / 2).join("\n")}
  ...layout("generated", () => import("./layout"), [
  ${lines.slice(EXTRA_PAGES / 2).join("\n  ")}
  ]),
];
`;
  return files;
}

/** src/app/index.ts's import of its table gets the generated one instead. */
function generatedRoutes(file: string): Plugin {
  const example = path.join(root, "src/app/routes.ts");
  return {
    name: "test:generated-routes",
    enforce: "pre",
    async resolveId(source, importer, options) {
      if (importer !== path.join(root, "src/app/index.ts") || source !== "./routes") return undefined;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return resolved?.id === example ? file : undefined;
    },
  };
}

/** The gzipped bytes of the first load of `module` in the build at `dir` (as budgets.test.ts counts them). */
function firstLoadGzip(dir: string, module: string): number {
  const { manifest } = readBuild(dir);
  const client = path.join(dir, "client");
  const files = staticClosure([manifest.entry, manifest.modules[module]!.file], client);
  return [...files].reduce((sum, href) => sum + stableGzip(assetIn(client, href)), 0);
}

describe("the first load of a larger app", () => {
  it(`grows by at most ${GROWTH_BUDGET} B gzip with ${EXTRA_PAGES} more pages`, async () => {
    app.write(generatedTable());
    const table = path.join(app.dir, "routes.ts");
    const out = path.join(app.dir, "out");
    await productionBuild({
      outDir: path.join(out, "client"),
      routes: app.rel("routes.ts"),
      plugins: [generatedRoutes(table)],
    });
    const { manifest } = readBuild(out);
    // The 200 pages and their layout are in the build, each a chunk of its own.
    expect(Object.keys(manifest.modules).filter((m) => m.includes("/pages/p")).length).toBe(EXTRA_PAGES);
    const example = firstLoadGzip(path.join(root, "dist"), HOME);
    const larger = firstLoadGzip(out, HOME);
    console.log(`first load of /: example ${example} B gzip, with ${EXTRA_PAGES} more pages ${larger} B`);
    expect(larger - example).toBeLessThanOrEqual(GROWTH_BUDGET);
  });
});
