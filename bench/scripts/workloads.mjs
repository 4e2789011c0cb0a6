// What the benchmark asks of the worker: the workloads, seeding the guestbook, and /slow's timings.
import { request } from "node:http";
import { randomUUID } from "node:crypto";
import { renderHeaders } from "./render-bookmark.mjs";

export const GUESTBOOK_ENTRIES = 500;
const DATA = { "x-page-data": "1" };
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
 * A visitor network per signature: signing is limited per visitor (SIGN_LIMITER), an IPv6
 * address counted by its /64, and the benchmark measures signing, not the limiter's refusals.
 */
const visitor = () => ({ "cf-connecting-ip": `fd00:${(signed >> 16) & 0xffff}:${signed & 0xffff}::1` });

let visitors = 0;
/** Each request a visitor of its own: the /shell/ pages greet each by their `name` cookie. */
function ownVisitor(req) {
  visitors += 1;
  return { ...req, headers: { ...req.headers, cookie: `name=visitor-${visitors}` } };
}

/**
 * Load workloads, each run against the app and (when `floor`) the floor worker. `needs`
 * names the page that must exist: if it answers 404 (an example page removed), the workload
 * is reported unavailable. `render`: the request carries a D1 bookmark (the visitor just wrote),
 * sealed afresh (render-bookmark.mjs), which makes the app render a page it would otherwise serve
 * from its edge cache: the floor renders every time, so the app must too for the two to compare.
 * `/` reads no D1, so the bookmark costs nothing else. `shell`: the app answers with a stored shell, resumed for each
 * visitor, the floor renders the page whole; the app should cost at most that times the floor.
 */
export const WORKLOADS = [
  // The peers' page (bench/workers/items.tsx): the app renders it for every request, as the floor.
  { id: "html-items", label: "HTML /items", path: "/items", floor: true },
  { id: "data-items", label: "page data /items", path: "/items?_data=1", headers: DATA, floor: true },
  // /items with a greeting in a hole (items.tsx), each request from a visitor of its own.
  {
    id: "html-shell-items",
    label: "HTML /shell/items, a shell from Miniflare's cache",
    path: "/shell/items",
    setupRequest: ownVisitor,
    floor: true,
    shell: 0.2,
  },
  {
    id: "html-shell-memory-items",
    label: "HTML /shell/memory/items, a shell from memory",
    path: "/shell/memory/items",
    setupRequest: ownVisitor,
    floor: true,
    shell: 0.2,
  },
  { id: "html-home", label: "HTML /", path: "/", render: true, floor: true },
  // Its form key is a hole: without a bookmark, the app answers with its stored shell.
  {
    id: "html-guestbook",
    label: "HTML /guestbook, a shell",
    path: "/guestbook",
    needs: "/guestbook",
    floor: true,
    shell: 0.3,
  },
  // With one, it renders the page whole: a shell made for the request, resumed, never stored.
  {
    id: "html-guestbook-render",
    label: "HTML /guestbook rendered (bookmark)",
    path: "/guestbook",
    render: true,
    needs: "/guestbook",
    floor: true,
  },
  { id: "data-home", label: "page data /", path: "/?_data=1", headers: DATA, render: true, floor: true },
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

/**
 * Each page's HTML and page data, measured against each other on the app: page data should cost
 * at most `cpu` times its HTML's worker CPU, or serve `rps` times its req/s.
 */
export const DATA_PAIRS = [
  { page: "/items", html: "html-items", data: "data-items", cpu: 0.8 },
  { page: "/", html: "html-home", data: "data-home" },
  { page: "/guestbook", html: "html-guestbook", data: "data-guestbook" },
];

/** The /items pages kept in the edge cache (items.tsx): Miniflare's Cache API, or a Map (memory). */
const hitOf = (path, label) => ({ id: `hit${path.replaceAll("/", "-")}`, label, path });
const ITEMS_HIT = hitOf("/cached/memory/items", "/items from a cache in memory");
const ITEMS_CACHE_API_HIT = hitOf("/cached/items", "/items from Miniflare's Cache API");

/**
 * A page the app serves from its edge cache, against its render or another hit: app only,
 * alternating windows. A hit should cost at most `limit` times what `render` costs.
 */
export const CACHE_PAIRS = [
  {
    key: "/items, memory",
    label: "/items: a hit from a cache in memory (the lookup left out, as on the edge), against a render",
    render: "html-items",
    hit: ITEMS_HIT,
    limit: 0.1,
  },
  {
    key: "/items, Miniflare",
    label: "/items: a hit from Miniflare's Cache API (its lookup included), against a render",
    render: "html-items",
    hit: ITEMS_CACHE_API_HIT,
    limit: 0.25,
  },
  {
    key: "/items 10x, memory",
    label: "a hit of a page 10 times larger (5000 rows), against a hit of /items, both from memory",
    render: ITEMS_HIT,
    hit: hitOf("/cached/memory/items-10x", "/items 10x from a cache in memory"),
    limit: 1.3,
    requires: "html-items",
    // The floor serves the same two pages from the isolate as they are: what sending them costs.
    floor: true,
  },
  {
    key: "/",
    label: "HTML /: a cache hit (Miniflare's Cache API) against its render",
    render: "html-home",
    hit: { id: "html-home-hit", label: "HTML / from the edge cache", path: "/" },
    limit: 0.25,
  },
  {
    key: "/guestbook",
    label: "/guestbook: its stored shell resumed, against the app rendering it whole (a bookmark)",
    render: "html-guestbook-render",
    hit: "html-guestbook",
    limit: 0.3,
    requires: "html-guestbook",
  },
  {
    key: "/guestbook, memory",
    label:
      "/guestbook: its stored shell from a cache in memory (the lookup left out, as on the edge), against the app rendering it whole",
    render: "html-guestbook-render",
    hit: {
      id: "html-guestbook-memory",
      label: "HTML /guestbook, a shell from memory",
      path: "/shell/memory/guestbook",
    },
    limit: 0.3,
    requires: "html-guestbook",
  },
];

/**
 * /items' stored shell resumed for each visitor, against a plain hit of /items from the same
 * cache: app only, worker CPU in alternating windows, then first bytes one request at a time
 * (firstBytes). The shell's first byte should come at most `ttfb` times the plain hit's.
 */
export const SHELL_PAIRS = [
  {
    key: "/items, Miniflare",
    label: "/shell/items against a plain hit of /items, both from Miniflare's Cache API",
    plain: ITEMS_CACHE_API_HIT,
    shell: "html-shell-items",
    ttfb: 1.1,
  },
  {
    key: "/items, memory",
    label: "/shell/memory/items against a plain hit of /items, both from a cache in memory",
    plain: ITEMS_HIT,
    shell: "html-shell-memory-items",
    ttfb: 1.1,
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

const quantile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) * q)];

/**
 * Time to first byte of each workload (a GET) on `url`, one request at a time (no load but its
 * own), in `rounds` rounds that alternate between them, `samples` requests each, each request
 * made as the workload's setupRequest makes it (a visitor of its own): the median and quartiles
 * of all, and each round's median (rounds compare as windows do: moments apart).
 */
export async function firstBytes(url, workloads, { rounds, samples }) {
  const all = workloads.map(() => []);
  const perRound = workloads.map(() => []);
  for (let round = 0; round < rounds; round++) {
    const order = [...workloads.keys()];
    for (const i of round % 2 ? order.reverse() : order) {
      const workload = workloads[i];
      const times = [];
      for (let k = 0; k < samples; k++) {
        const sent = { headers: { ...workload.headers, ...(workload.render ? renderHeaders() : {}) } };
        const { headers } = workload.setupRequest?.(sent) ?? sent;
        const { status, ttfb } = await timeOne(url + workload.path, headers);
        if (status !== 200) throw new Error(`first bytes: ${workload.path} answered ${status}`);
        times.push(ttfb);
      }
      perRound[i].push(quantile(times, 0.5));
      all[i].push(...times);
    }
  }
  return all.map((times, i) => ({
    samples: times.length,
    q1: quantile(times, 0.25),
    median: quantile(times, 0.5),
    q3: quantile(times, 0.75),
    rounds: perRound[i],
  }));
}

/**
 * /slow rendered (past the edge cache, which would send it whole): the shell should arrive at once
 * and the Suspense part about a second later.
 */
export async function slowTimings(url, samples) {
  const runs = [];
  for (let i = 0; i < samples; i++) runs.push(await timeOne(`${url}/slow`, renderHeaders()));
  const median = (key) => runs.map((r) => r[key]).sort((a, b) => a - b)[Math.floor(runs.length / 2)];
  return { samples, status: runs[0].status, ttfb: median("ttfb"), ttlb: median("ttlb") };
}
