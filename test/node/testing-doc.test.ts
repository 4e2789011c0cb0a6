// docs/testing.md's "Testing your product" quotes two test files whole: the blocks stay what runs.
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { root } from "./dist";

const doc = readFileSync(path.join(root, "docs/testing.md"), "utf8");

it.each(["test/worker/about-page.test.ts", "test/e2e/about-page.test.ts"])(
  "quotes %s as it is, in under 30 lines",
  (file) => {
    const block = new RegExp(`\`${file}\`:\\n\\n\`\`\`ts\\n([\\s\\S]*?)\`\`\``).exec(doc)?.[1];
    const source = readFileSync(path.join(root, file), "utf8");
    expect(block, `docs/testing.md has no ts block after \`${file}\`:`).toBeDefined();
    expect(block).toBe(source);
    expect(source.trimEnd().split("\n").length).toBeLessThan(30);
  },
);
