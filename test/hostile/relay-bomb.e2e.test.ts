// Gzip bombs at the relay under `npm run preview`: each is refused at once, costs the worker no more
// memory than a plain envelope of the same size, and the app keeps answering.
import { beforeAll, describe, expect, inject, it } from "vitest";
import { usePreview } from "../../src/test/browser/preview";
import { gzipBomb } from "./gzip-bomb";
import { rawRequest } from "./raw-http";
import { appWorkerdPid, memoryPreview, peakRiseKiB } from "./worker-memory";

let bomb: Buffer;
let ip = 0;
/** Its own visitor IP per request, so the relay's per-IP limit never answers instead. */
const visitor = () => ({ "CF-Connecting-IP": `10.88.${Math.floor(++ip / 250)}.${ip % 250}` });

beforeAll(async () => {
  bomb = await gzipBomb();
});

async function postEnvelope(baseURL: string, body: Uint8Array, gzip: boolean) {
  const answer = await rawRequest(baseURL, {
    method: "POST",
    path: "/monitoring",
    headers: { "Content-Type": "text/plain", ...(gzip ? { "Content-Encoding": "gzip" } : {}), ...visitor() },
    body,
  });
  expect(answer.status).toBe(400);
  expect(answer.complete).toBe(true);
  return answer;
}

describe("gzip bombs at the relay", () => {
  // "At once" against what the machine takes for the same bytes sent plain (refused at their
  // first line too, nothing inflated): a fixed second failed once beside two busy test processes.
  it("answers 16 concurrent bombs each with 400 as soon as 16 plain bodies of their size, and GET / still answers 200", async () => {
    const baseURL = inject("baseURL");
    const sixteen = (body: Buffer, gzip: boolean) =>
      Promise.all(Array.from({ length: 16 }, () => postEnvelope(baseURL, body, gzip)));
    const plain = Math.max(...(await sixteen(Buffer.alloc(bomb.byteLength, " "), false)).map((a) => a.ms));
    const answers = await sixteen(bomb, true);
    for (const answer of answers) expect(answer.ms).toBeLessThan(Math.max(1_000, 3 * plain));
    const home = await rawRequest(baseURL, { method: "GET", path: "/", timeoutMs: 5_000 });
    expect(home.status).toBe(200);
    expect(home.complete).toBe(true);
  });
});

describe("one gzip bomb in a fresh worker", () => {
  const preview = usePreview(
    memoryPreview({ SENTRY_DSN: `http://publickey@${new URL(inject("ingestURL")).host}/1` }),
  );

  it("raises the worker's peak memory no more than a plain envelope of the same size does, give or take 4 MB", async () => {
    const server = preview();
    const pid = appWorkerdPid(server.pid);
    // The same number of bytes, not gzip: its header line (over 64 KiB, no newline) is refused too.
    const plain = Buffer.alloc(bomb.byteLength, " ");
    // Once first, so what is measured is the request, not the first use of the relay's code.
    await postEnvelope(server.url, plain, false);
    const plainRise = await peakRiseKiB(pid, () => postEnvelope(server.url, plain, false));
    const bombRise = await peakRiseKiB(pid, () => postEnvelope(server.url, bomb, true));
    console.log(`peak RSS rise of the app's workerd: plain ${plainRise} KiB, gzip bomb ${bombRise} KiB`);
    expect(bombRise).toBeLessThan(plainRise + 4 * 1024);
  });
});
