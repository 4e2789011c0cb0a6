// The client build gives each page of the route table a chunk of its own, however the table is
// written: here a map of patterns spread through a helper, over several lines (Vite splits at
// every import(), wherever it is).
import { afterAll, describe, expect, it } from "vitest";
import { tempApp } from "./vite-app";

const app = tempApp();
afterAll(() => app.remove());

describe("the client build's route table", () => {
  it("gives each page its own chunk in the manifest, however the table is formatted", async () => {
    app.write({
      "alpha.tsx": `export const title = "A";\nexport default function A() { return <p>alpha page text</p>; }\n`,
      "beta.tsx": `export const title = "B";\nexport default function B() { return <p>beta page text</p>; }\n`,
      "routes.ts": `import { page } from "verge";
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
      "entry.ts": `import { routes } from "./routes";\nconsole.log(routes.length);\n`,
    });
    const { output, report } = await app.build("entry.ts", "out");
    const { modules } = report.manifest;
    const [alpha, beta] = [app.rel("alpha.tsx"), app.rel("beta.tsx")];
    expect(Object.keys(modules).sort()).toEqual([alpha, beta]);
    const code = (module: string) =>
      output.find((chunk) => `/${chunk.fileName}` === modules[module]!.file)!.code;
    expect(code(alpha)).toContain("alpha page text");
    expect(code(beta)).toContain("beta page text");
    expect(code(alpha)).not.toContain("beta page text");
    expect(modules[alpha]!.file).not.toBe(report.manifest.entry);
  });
});
