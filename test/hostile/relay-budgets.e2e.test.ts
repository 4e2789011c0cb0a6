// The collector's reports ride the relay's vitals budget, in Chromium against npm run preview: the
// browser marks each report, and the relay takes what the collector writes as one vitals envelope
// (a marked post that is anything else is refused: relay-budgets.worker.test.ts).
import { beforeEach, describe, expect, inject, it } from "vitest";
import { byName } from "verge/test/browser";
import { VITALS_KEY } from "../../src/shared/vitals";
import {
  documentRay,
  ingestControl,
  logLines,
  openPage,
  useBrowser,
  vitalsCollecting,
  vitalsEnvelopes,
} from "../e2e/support";

const browser = useBrowser();
beforeEach(async () => {
  await ingestControl("reset");
});

/** The same server under another name: another site to the browser. */
const elsewhere = () => `${byName(inject("baseURL"))}/robots.txt`;

describe("the relay's vitals budget, from the browser", () => {
  it("takes a page view's report on the vitals budget and forwards it", async () => {
    const { page, context } = await openPage(browser());
    await page.goto("/guestbook");
    const ray = await documentRay(page);
    await vitalsCollecting(page);
    await page.goto(elsewhere());
    // This page's own: another file's page may report as it closes.
    const own = async () =>
      (await vitalsEnvelopes()).filter(
        (envelope) => (envelope.header[VITALS_KEY] as { ray?: string }).ray === ray,
      );
    await expect.poll(async () => (await own()).length).toBe(1);
    const eventIds = (await own()).map((envelope) => envelope.header.event_id);
    const relayed = async () =>
      (await logLines()).filter((line) => line.kind === "relay" && eventIds.includes(line.event_id));
    await expect.poll(async () => (await relayed()).length).toBe(eventIds.length);
    for (const line of await relayed()) {
      expect(line).toMatchObject({ status: 200, budget: "vitals", vitals: { route: "/guestbook" } });
    }
    await context.close();
  });
});
