// `npm run dev` streams pages to a browser as production does: /slow's shell is on screen, its
// slow section's fallback showing, before the server even has the slow section, which then
// arrives in the same response and takes the fallback's place. The command runs as a developer
// runs it, in a copy of the project (test/e2e/global-setup.ts), so its build never touches ours.
import { describe, expect, inject, it } from "vitest";
import { openPage, useBrowser } from "./support";

const browser = useBrowser();
const base = inject("devURL");

/** What a frame drew (the shell's heading, the slow section's fallback, its value), and when. */
interface Frame {
  shell: boolean;
  fallback: boolean;
  value: boolean;
  at: number;
}

describe("npm run dev", () => {
  it("streams /slow to a browser that accepts gzip: the shell and its fallback are drawn before the slow section exists", async () => {
    // The first request of a route compiles it, in development: look at a warm server.
    await (await fetch(`${base}/slow`)).text();
    const { page, context, problems } = await openPage(browser(), { baseURL: base });
    // From before the document's first byte, what each frame drew when it changed (a
    // requestAnimationFrame callback runs just before its frame is painted).
    await page.addInitScript(() => {
      const frames: Frame[] = [];
      const draw = () => {
        const fallback = document.querySelector<HTMLElement>("[data-testid=slow-fallback]");
        const frame = {
          shell: document.querySelector("h1")?.textContent === "Slow",
          fallback: fallback !== null && fallback.checkVisibility(),
          value: document.querySelector("[data-testid=slow-value]") !== null,
          at: Date.now(),
        };
        const last = frames.at(-1);
        if (
          !last ||
          last.shell !== frame.shell ||
          last.fallback !== frame.fallback ||
          last.value !== frame.value
        ) {
          frames.push(frame);
        }
        if (!frame.value || frame.fallback) requestAnimationFrame(draw);
      };
      requestAnimationFrame(draw);
      Object.assign(window, { __frames: frames });
    });
    const sent = page.waitForRequest((request) => request.url() === `${base}/slow`);
    await page.goto("/slow");
    expect((await (await sent).allHeaders())["accept-encoding"]).toMatch(/\bgzip\b/);
    // The slow section arrives and takes the fallback's place.
    await page.getByTestId("slow-value").waitFor();
    await expect.poll(() => page.getByTestId("slow-fallback").count()).toBe(0);
    const frames = await page.evaluate(() => (window as unknown as { __frames: Frame[] }).__frames);
    const drawn = JSON.stringify(frames);
    const waiting = frames.find((frame) => frame.shell && frame.fallback && !frame.value);
    expect(waiting, `a frame drew the shell and the fallback alone: ${drawn}`).toBeDefined();
    expect(frames.at(-1), `the last frame drew the slow section alone: ${drawn}`).toMatchObject({
      shell: true,
      fallback: false,
      value: true,
    });
    // When the server had the slow section (its clock is this machine's). A response held back
    // until the page is whole can only be drawn after that moment, fallback or not (the parser
    // may draw a frame midway through a whole document); a streamed shell is drawn before it.
    const finishedAt = Date.parse(
      await page.getByTestId("slow-value").locator("time").getAttribute("datetime").then(String),
    );
    expect(waiting!.at, `the fallback's frame came before the slow section existed: ${drawn}`).toBeLessThan(
      finishedAt,
    );
    expect(problems).toEqual([]);
    await context.close();
  });
});
