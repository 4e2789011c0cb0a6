// What a developer who loads a page around a save gets from `npm run dev`: every document names
// only scripts and stylesheets the server serves, and the files an open page already loaded stay.
// The save is an edit of the project copy `npm run dev` serves (test/e2e/global-setup.ts).
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, inject, it } from "vitest";

const devURL = inject("devURL");
const home = path.join(inject("devRoot"), "src/app/pages/home.tsx");
const original = await readFile(home, "utf8");

/** `/` as a browser loading it would get it: its HTML and the status of each file it names. */
async function loadHome() {
  const html = await (await fetch(`${devURL}/`)).text();
  // Every script and stylesheet: Vite serves the modules under their own paths (/client/entry.tsx).
  const files = [...html.matchAll(/<(?:script|link)\b[^>]*?(?:src|href)="(\/(?!\/)[^"]+)"/g)].map(
    (match) => match[1]!,
  );
  const statuses = await Promise.all(
    [...new Set(files)].map(async (file) => [file, (await fetch(`${devURL}${file}`)).status] as const),
  );
  return { html, statuses };
}

const withHeading = (text: string) => original.replace("<h1>verge</h1>", `<h1>${text}</h1>`);

/**
 * Saves `home.tsx` with `heading`, and loads `/` again and again from the save until a document
 * with the new heading arrives; returns every named file that did not answer 200 meanwhile.
 */
async function loadAcrossSave(heading: string) {
  const missing: string[] = [];
  await writeFile(home, withHeading(heading));
  const deadline = Date.now() + 60_000;
  for (;;) {
    const { html, statuses } = await loadHome();
    for (const [file, status] of statuses) if (status !== 200) missing.push(`${status} ${file}`);
    if (html.includes(`<h1>${heading}</h1>`)) return missing;
    if (Date.now() > deadline) throw new Error(`the save of "${heading}" was never served`);
  }
}

afterEach(async () => {
  await writeFile(home, original);
  await expect
    .poll(async () => (await loadHome()).html, { timeout: 60_000, interval: 200 })
    .toContain("<h1>verge</h1>");
});

describe("npm run dev across a save", () => {
  it("serves every script and stylesheet each document names, at every load from the save on", async () => {
    for (const heading of ["verge, saved once", "verge, saved twice", "verge, saved again"]) {
      expect(await loadAcrossSave(heading), heading).toEqual([]);
    }
  });

  it("keeps serving the files an open page loaded before a save", async () => {
    const before = await loadHome();
    expect(before.statuses.filter(([, status]) => status !== 200)).toEqual([]);
    await loadAcrossSave("verge, saved with a page open");
    const after = await Promise.all(
      before.statuses.map(async ([file]) => `${(await fetch(`${devURL}${file}`)).status} ${file}`),
    );
    expect(after).toEqual(before.statuses.map(([file]) => `200 ${file}`));
  });
});
