// The app's build configs take verge's plugin as a package would be taken, `verge/vite` (the
// package's own export, through Node's self-reference), and Vite's default config loader loads
// them on the Node that runs this: it leaves every bare import to Node, and Node 20 runs no
// TypeScript, so the export is a small .mjs entry (src/vite/node.mjs).
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { root } from "./dist";

const CONFIGS = ["vite.config.ts", "test/fixture-app/vite.config.ts", "vitest.config.ts"];

const specifiers = (file: string) =>
  ts
    .preProcessFile(readFileSync(path.join(root, file), "utf8"), true, true)
    .importedFiles.map((i) => i.fileName);

/** What a fresh Node process prints running `script` (an ES module) from the project's root. */
const inNode = (script: string) =>
  execFileSync(process.execPath, ["--input-type=module", "-e", script], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, NODE_ENV: "production" },
  });

describe("verge/vite", () => {
  it.each(CONFIGS)("is what %s imports the plugin as, never a path into src/vite/", (file) => {
    expect(specifiers(file)).toContain("verge/vite");
    expect(specifiers(file).filter((specifier) => specifier.includes("src/vite"))).toEqual([]);
  });

  it("is a package export Node itself loads, with the plugin and what the configs take", () => {
    const printed = inNode(
      `const m = await import("verge/vite"); console.log(JSON.stringify({ keys: Object.keys(m).sort(), names: m.verge().map((p) => p.name) }));`,
    );
    expect(JSON.parse(printed)).toEqual({
      keys: ["BUILD_REPORT", "MANIFEST_MODULE", "localVars", "verge"],
      names: expect.arrayContaining(["verge:config", "verge:server-only", "verge:manifest"]),
    });
  });

  // One config is enough (each loads the Cloudflare plugin, seconds of it): npm test builds the
  // fixture app's with it too.
  it.each(["vite.config.ts"])(
    "loads %s through Vite's own config loader, with verge's plugin in it",
    (file) => {
      const printed = inNode(`
        const { loadConfigFromFile } = await import("vite");
        const loaded = await loadConfigFromFile({ command: "build", mode: "production" }, ${JSON.stringify(file)});
        const names = loaded.config.plugins.flat(Infinity).filter(Boolean).map((plugin) => plugin.name);
        console.log(JSON.stringify({ names, verge: loaded.dependencies.filter((d) => d.includes("src/vite")) }));
      `);
      const { names, verge } = JSON.parse(printed.trim().split("\n").at(-1)!) as {
        names: string[];
        verge: string[];
      };
      expect(names).toContain("verge:server-only");
      // Not bundled into the config by path: Node loaded it as the package's export.
      expect(verge).toEqual([]);
    },
  );
});
