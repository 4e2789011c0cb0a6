// Which of the run's browser servers a test file makes start (test/e2e/server-uses.ts): a product's
// file that starts its own preview, as docs/testing.md shows, starts none of them.
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { usesOf, usesOfFile } from "../e2e/server-uses";
import { root } from "./dist";

const productFile = `import { openPage, useBrowser, usePreview } from "verge/test/browser";
const browser = useBrowser();
const preview = usePreview();
// openPage(browser(), { baseURL: preview().url })`;

it("starts no run server for a file that starts its own preview", () => {
  expect(usesOf(productFile)).toEqual({ preview: false, fixture: false, dev: false });
});

it("starts the run's preview for every project file that reaches it through its helpers or address", () => {
  const files = ["test/e2e", "test/hostile"].flatMap((dir) =>
    readdirSync(path.join(root, dir))
      .filter((name) => /(^|\.)e2e\.test\.ts$|^(?!.*\.(worker|node)\.test).*\.test\.ts$/.test(name))
      .map((name) => path.join(root, dir, name)),
  );
  expect(files.length).toBeGreaterThan(40);
  const silent = files.filter((file) => {
    const uses = usesOfFile(file);
    return (
      !uses.preview &&
      !uses.fixture &&
      !uses.dev &&
      !/\b(usePreview|startPreview)\(/.test(readFileSync(file, "utf8"))
    );
  });
  // Each browser file talks to a server the run starts for it, or starts its own.
  expect(silent.map((file) => path.relative(root, file))).toEqual([]);
});
