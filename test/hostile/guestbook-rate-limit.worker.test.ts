// Signing is limited per visitor: past 10 signatures a minute, 429 with Retry-After, and what was typed kept.
import { beforeEach, describe, expect, it } from "vitest";
import {
  postForm,
  postScript,
  rowsNamed,
  uniqueName,
  visitorIp,
  visitorNetwork,
} from "../worker/action-helpers";
import { awaitFreshWindow, FRESH_WINDOW_TIMEOUT_MS } from "../support/rate-limit";

const LIMIT = 10;
const MESSAGE = "You have signed several times in a short while: wait a minute, then send it again.";

const sign = (ip: string, fields: Record<string, string>) =>
  postScript("sign", fields, { "CF-Connecting-IP": ip });

/** Signs LIMIT times as `ip`, each accepted. */
async function useUpLimit(ip: string) {
  for (let i = 0; i < LIMIT; i++) {
    const response = await sign(ip, { name: uniqueName("filler"), message: `signature ${i}` });
    expect(response.status).toBe(200);
    await response.arrayBuffer();
  }
}

// The wait may outlast vitest's default hook timeout (10 s).
beforeEach(() => awaitFreshWindow(), FRESH_WINDOW_TIMEOUT_MS);

describe("the guestbook's per-visitor signing limit", () => {
  it("re-renders the page without JavaScript with 429, Retry-After, the message and the typed values", async () => {
    const ip = visitorIp();
    await useUpLimit(ip);
    const name = uniqueName("limited");
    const response = await postForm({ _action: "sign", name, message: "kept <i>words</i>" }, "/guestbook", {
      "CF-Connecting-IP": ip,
    });
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("60");
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const page = await response.text();
    expect(page).toMatch(new RegExp(`role="alert"[^>]*>${MESSAGE}`));
    expect(page.match(/<input[^>]*id="form-sign-name"[^>]*>/)?.[0]).toContain(`value="${name}"`);
    expect(page).toContain("kept &lt;i&gt;words&lt;/i&gt;</textarea>");
    expect(await rowsNamed(name)).toEqual([]);
  });

  it("answers 429 JSON with Retry-After, the message and the typed values to JavaScript", async () => {
    const ip = visitorIp();
    await useUpLimit(ip);
    const name = uniqueName("limited");
    const response = await sign(ip, { name, message: "with script", _key: crypto.randomUUID() });
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("60");
    expect(await response.json()).toEqual({
      ok: false,
      fieldErrors: {},
      message: MESSAGE,
      values: { name, message: "with script" },
    });
    expect(await rowsNamed(name)).toEqual([]);
  });

  it("counts each visitor apart: another address still signs", async () => {
    await useUpLimit(visitorIp());
    const response = await sign(visitorIp(), { name: uniqueName("other"), message: "still welcome" });
    expect(response.status).toBe(200);
  });

  it("counts an IPv6 /64 as one visitor: 12 addresses of one network share its 10 signatures", async () => {
    const network = visitorNetwork();
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 2; i++) {
      // Written every way an address of the network may be: `::`, leading zeros, upper case.
      const ip = [`${network}::${i + 1}`, `${network}:0:0:0:${(i + 1).toString(16).toUpperCase()}`][i % 2]!;
      const response = await sign(ip, { name: uniqueName("net"), message: `from ${ip}` });
      statuses.push(response.status);
      await response.arrayBuffer();
    }
    expect(statuses).toEqual([...Array(LIMIT).fill(200), 429, 429]);
  });

  it("counts two /64 networks apart, even with the same host part", async () => {
    await useUpLimit(`${visitorNetwork()}::1`);
    const response = await sign(`${visitorNetwork()}::1`, { name: uniqueName("other-net"), message: "hi" });
    expect(response.status).toBe(200);
  });

  it("does not count submissions refused for their fields", async () => {
    const ip = visitorIp();
    for (let i = 0; i < LIMIT + 2; i++) {
      expect((await sign(ip, { name: "", message: "no name" })).status).toBe(422);
    }
    const name = uniqueName("after-typos");
    expect((await sign(ip, { name, message: "now right" })).status).toBe(200);
    expect(await rowsNamed(name)).toHaveLength(1);
  });
});
