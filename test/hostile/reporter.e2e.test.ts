// The browser reporter against errors too big to send as they are: long messages, huge and
// hostile stacks, envelopes over the browser's 64 KiB keepalive budget. Chromium, npm run
// preview and the fake ingest: what arrives is what Sentry would show.
import { beforeEach, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { ingestControl, ingestEnvelopes, openPage, useBrowser } from "../e2e/support";
import { eventOf } from "../support/envelope";

const browser = useBrowser();
beforeEach(async () => {
  await ingestControl("reset");
});

async function openErrorsPage() {
  const observed = await openPage(browser());
  await observed.page.goto("/errors");
  await observed.page.waitForFunction(() => document.querySelector("#__verge_page") !== null);
  return observed;
}

/** Throws, uncaught, an Error with `message` and (when given) `stack` in place of its own. */
const throwInPage = (page: Page, message: string, stack?: string) =>
  page.evaluate(
    ([message, stack]) => {
      const error = new Error(message);
      if (stack !== undefined) error.stack = stack;
      setTimeout(() => {
        throw error;
      });
    },
    [message, stack] as const,
  );

/** The one exception that reached the ingest, once it has (within `timeout` ms). */
async function arrivedException(timeout = 10_000) {
  await expect.poll(async () => (await ingestEnvelopes()).length, { timeout }).toBe(1);
  return eventOf((await ingestEnvelopes())[0]!)!.exception.values[0];
}

/** A V8 stack line of a frame in the page's own script. */
const frameLine = (fn: string, line: number) => `    at ${fn} (http://127.0.0.1/assets/app.js:${line}:7)`;

describe("browser reporter and big errors", () => {
  it("sends an error with a 200 KB message, its message cut to 8192 characters and '...'", async () => {
    const { page, context } = await openErrorsPage();
    const message = "m".repeat(200_000);
    await throwInPage(page, message);
    const exception = await arrivedException();
    expect(exception.value).toBe(`${"m".repeat(8192)}...`);
    await context.close();
  });

  it("sends a report over the 64 KiB keepalive budget (without keepalive)", async () => {
    const { page, context } = await openErrorsPage();
    // Nothing here is cut (8000 characters, 45 frames), yet it is ~70 KB: 3 bytes a "€", 1 KB a frame.
    const message = "€".repeat(8000);
    const frames = Array.from({ length: 45 }, (_, i) => frameLine(`f${i}_${"x".repeat(950)}`, i + 1));
    await throwInPage(page, message, [`Error: ${message}`, ...frames].join("\n"));
    const exception = await arrivedException();
    expect(exception.value).toBe(message);
    expect(exception.stacktrace.frames).toHaveLength(45);
    await context.close();
  });

  it("sends two reports together whose sum is over the keepalive budget", async () => {
    const { page, context } = await openErrorsPage();
    // ~40 KB each: alone each fits the 64 KiB budget; the second, while the first is in flight, does not.
    const frames = Array.from({ length: 38 }, (_, i) => frameLine(`g${i}_${"y".repeat(950)}`, i + 1));
    for (const message of ["first of two", "second of two"]) {
      await throwInPage(page, message, [`Error: ${message}`, ...frames].join("\n"));
    }
    await expect.poll(async () => (await ingestEnvelopes()).length, { timeout: 10_000 }).toBe(2);
    const values = (await ingestEnvelopes()).map((envelope) => eventOf(envelope)!.exception.values[0].value);
    expect(values.sort()).toEqual(["first of two", "second of two"]);
    await context.close();
  });

  it("sends reports one after another whose sum is over the keepalive budget, each one arriving", async () => {
    // Each answer's head comes at once and its body two seconds later: the browser counts a
    // keepalive request against its 64 KiB until then, after the reporter has its status.
    await ingestControl("mode?mode=slow-body");
    const { page, context } = await openErrorsPage();
    // ~30 KB each, each sent once the one before has arrived.
    const frames = Array.from({ length: 28 }, (_, i) => frameLine(`h${i}_${"z".repeat(950)}`, i + 1));
    const messages = ["one of four", "two of four", "three of four", "four of four"];
    for (const [index, message] of messages.entries()) {
      await throwInPage(page, message, [`Error: ${message}`, ...frames].join("\n"));
      await expect.poll(async () => (await ingestEnvelopes()).length, { timeout: 10_000 }).toBe(index + 1);
    }
    const values = (await ingestEnvelopes()).map((envelope) => eventOf(envelope)!.exception.values[0].value);
    expect(values).toEqual(messages);
    await context.close();
  });

  it("sends a stack of 200 frames as its 50 innermost, the throwing frame last", async () => {
    const { page, context } = await openErrorsPage();
    const frames = Array.from({ length: 200 }, (_, i) => frameLine(`depth${i}`, i + 1));
    await throwInPage(page, "deep", ["Error: deep", ...frames].join("\n"));
    const sent = (await arrivedException()).stacktrace.frames as { function: string }[];
    expect(sent.map((frame) => frame.function)).toEqual(
      Array.from({ length: 50 }, (_, i) => `depth${49 - i}`),
    );
    await context.close();
  });

  it("reads a 300 KB stack line made to make frame parsing backtrack without stalling", async () => {
    const { page, context } = await openErrorsPage();
    // Each " (" restarts the frame pattern's scan of the rest of the line: quadratic, unless cut.
    const hostile = `    at ${"a (".repeat(100_000)}`;
    await throwInPage(
      page,
      "hostile stack",
      ["Error: hostile stack", hostile, frameLine("real", 3)].join("\n"),
    );
    const exception = await arrivedException(5_000);
    expect(exception.value).toBe("hostile stack");
    expect(exception.stacktrace.frames.map((frame: { function: string }) => frame.function)).toEqual([
      "real",
    ]);
    await context.close();
  });
});
