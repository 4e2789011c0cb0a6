// Fast Refresh lives in development builds under `npm run dev` only: the production build carries
// none of it, and a refresh build marks each component for react-refresh's runtime.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildClient, PRODUCT } from "../../scripts/build-client.mjs";
import { clientChunks, readBuild, root } from "./dist";

/** What only the refresh runtime, its transform or its dev hook put into a chunk. */
const REFRESH_MARKS = [
  "performReactRefresh",
  "injectIntoGlobalHook",
  "$RefreshReg$",
  "__vergeRouter",
  "__vergeRefreshMade",
  "__vergeFormContext",
  "EventSource",
];

const temporary: string[] = [];
afterAll(() => {
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
});

describe("Fast Refresh", () => {
  it("is nowhere in the production client build", () => {
    readBuild();
    for (const [name, code] of clientChunks()) {
      for (const mark of REFRESH_MARKS) expect(code.includes(mark), `${mark} in ${name}`).toBe(false);
    }
  });

  it("marks every page component in a development build for npm run dev, and starts with the runtime", async () => {
    const out = mkdtempSync(path.join(os.tmpdir(), "verge-refresh-"));
    temporary.push(out);
    const manifest = await buildClient({
      ...PRODUCT,
      out: path.relative(root, out),
      dev: true,
      devEvents: "http://127.0.0.1:1/events",
      log: () => {},
    });
    expect(manifest.build).toBe("dev");
    const read = (href: string) => readFileSync(path.join(out, "client", href), "utf8");
    expect(read(manifest.routes["/"]!.module) + manifest.routes["/"]!.imports.map(read).join("")).toMatch(
      /\$RefreshReg\$\(_c\d*, "Home"\)/,
    );
    const chunks = readdirSync(path.join(out, "client/assets")).filter((name) => name.endsWith(".js"));
    const runtime = chunks.filter((name) => read(`/assets/${name}`).includes("injectIntoGlobalHook"));
    expect(runtime).toHaveLength(1);
    // The entry imports the runtime, then the app by a dynamic import: React loads after the hook.
    const entry = read(manifest.entry);
    expect(entry).toContain(`import "./${runtime[0]}"`);
    expect(entry).toMatch(/await import\("\.\/chunk-[A-Z0-9]+\.js"\)/);
  });

  it("gives the layout and a component two pages share chunks of their own in a development build", async () => {
    const out = mkdtempSync(path.join(os.tmpdir(), "verge-refresh-"));
    temporary.push(out);
    await buildClient({
      ...PRODUCT,
      out: path.relative(root, out),
      dev: true,
      devEvents: "http://127.0.0.1:1/events",
      log: () => {},
    });
    const { outputs } = JSON.parse(readFileSync(path.join(out, "client-metafile.json"), "utf8")) as {
      outputs: Record<string, { entryPoint?: string; inputs: Record<string, { bytesInOutput: number }> }>;
    };
    for (const file of ["src/app/layout.tsx", "src/app/streamed-section.tsx"]) {
      // Importing the file's entry chunk after an edit runs only the chunk that holds its code.
      expect(
        Object.values(outputs).some((output) => output.entryPoint === file),
        `${file} is an entry`,
      ).toBe(true);
      const holders = Object.values(outputs).filter(
        (output) => (output.inputs[file]?.bytesInOutput ?? 0) > 0,
      );
      expect(holders).toHaveLength(1);
      const projectCode = Object.entries(holders[0]!.inputs)
        .filter(([input, { bytesInOutput }]) => bytesInOutput > 0 && !input.startsWith("node_modules/"))
        .map(([input]) => input);
      expect(projectCode).toEqual([file]);
    }
  });
});
