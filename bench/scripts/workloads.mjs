// What the benchmark asks of the worker: the workloads, seeding the guestbook, and /slow's timings.
import { request } from "node:http";
import { randomUUID } from "node:crypto";

export const GUESTBOOK_ENTRIES = 500;
const DATA = { "x-page-data": "1" };
/**
 * A D1 bookmark (the visitor just wrote) makes the app render a page it would otherwise serve from
 * its edge cache: the floor renders every time, so the app must too for the two to compare. `/`
 * reads no D1, so the bookmark costs nothing else.
 */
const RENDER = { "x-d1-bookmark": "00000000-00000000-00000000-00000000000000000000000000000000" };
const FORM = "application/x-www-form-urlencoded";

let signed = 0;
/** A guestbook signature with a fresh idempotency key, so every request really inserts. */
export function signatureBody() {
  signed += 1;
  return new URLSearchParams({
    name: `Bench visitor ${signed}`,
    message: `Entry ${signed}: a message of ordinary length, <b>with markup</b> that must stay text.`,
    _key: randomUUID(),
  }).toString();
}

/**
 * A visitor address per signature: signing is limited per CF-Connecting-IP (SIGN_LIMITER), and
 * the benchmark measures signing, not the limiter's refusals.
 */
const visitor = () => ({ "cf-connecting-ip": `fd00::${(signed >> 16) & 0xffff}:${signed & 0xffff}` });

/**
 * Load workloads, each run against the app and (when `floor`) the floor worker. `needs`
 * names the page that must exist: if it answers 404 (an example page removed), the workload
 * is reported unavailable.
 */
export const WORKLOADS = [
  { id: "html-home", label: "HTML /", path: "/", headers: RENDER, floor: true },
  { id: "html-guestbook", label: "HTML /guestbook", path: "/guestbook", needs: "/guestbook", floor: true },
  { id: "data-home", label: "page data /", path: "/?_data=1", headers: { ...DATA, ...RENDER }, floor: true },
  {
    id: "data-guestbook",
    label: "page data /guestbook",
    path: "/guestbook?_data=1",
    headers: DATA,
    needs: "/guestbook",
    floor: true,
  },
  {
    id: "action-sign",
    label: "action sign (JS)",
    path: "/guestbook",
    method: "POST",
    headers: { "content-type": FORM, "x-action": "sign" },
    origin: true,
    setupRequest: (req) => ({ ...req, body: signatureBody(), headers: { ...req.headers, ...visitor() } }),
    needs: "/guestbook",
    floor: true,
  },
];

/** Each page whose page data should cost at most half its HTML: the HTML and data workloads. */
export const DATA_PAIRS = [
  { page: "/", html: "html-home", data: "data-home" },
  { page: "/guestbook", html: "html-guestbook", data: "data-guestbook" },
];

/** A page the app serves from its edge cache, against its render: app only, alternating windows. */
export const CACHE_PAIRS = [
  {
    page: "/",
    render: "html-home",
    hit: { id: "html-home-hit", label: "HTML / from the edge cache", path: "/" },
  },
];

/** Pages present in this build: GET answers 200 (404 while the guestbook is on its branch). */
export async function availablePages(url, paths) {
  const found = new Set();
  for (const path of paths) {
    const response = await fetch(url + path);
    await response.arrayBuffer();
    if (response.status === 200) found.add(path);
  }
  return found;
}

/** Signs the guestbook `count` times through the public action, a few at a time. */
export async function seedGuestbook(url, count = GUESTBOOK_ENTRIES) {
  const headers = { "content-type": FORM, "x-action": "sign", origin: url };
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next += 1;
      const body = signatureBody();
      const response = await fetch(`${url}/guestbook`, {
        method: "POST",
        headers: { ...headers, ...visitor() },
        body,
      });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`seeding: POST /guestbook answered ${response.status}`);
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
}

/** Time to first byte and to last byte of one GET, in ms. */
function timeOne(url, headers = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let firstByte = null;
    request(url, { headers }, (response) => {
      response.on("data", () => (firstByte ??= performance.now() - started));
      response.on("end", () =>
        resolve({ status: response.statusCode, ttfb: firstByte, ttlb: performance.now() - started }),
      );
      response.on("error", reject);
    })
      .on("error", reject)
      .end();
  });
}

/**
 * /slow rendered (past the edge cache, which would send it whole): the shell should arrive at once
 * and the Suspense part about a second later.
 */
export async function slowTimings(url, samples) {
  const runs = [];
  for (let i = 0; i < samples; i++) runs.push(await timeOne(`${url}/slow`, RENDER));
  const median = (key) => runs.map((r) => r[key]).sort((a, b) => a - b)[Math.floor(runs.length / 2)];
  return { samples, status: runs[0].status, ttfb: median("ttfb"), ttlb: median("ttlb") };
}
