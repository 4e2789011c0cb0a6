// The edge cache against what could leak between visitors: the placeholder nonce a stored page
// carries, a nonce a page chose itself, a form key, a nonce shown as text.
import { describe, expect, it } from "vitest";
import {
  cacheApp,
  clockForward,
  fresh,
  OWN_NONCE,
  pageData,
  plant,
  renderedNonces,
  storedPlaceholder,
  type Visit,
} from "../worker/cache-app";
import { cspNonce, scriptsAndLinks } from "../worker/html";
import { manifest } from "../worker/apps";

const { visit, start } = cacheApp();

/** The tags that `test` picks, then the others. */
const partition = <T>(items: T[], test: (item: T) => boolean): [T[], T[]] => [
  items.filter(test),
  items.filter((item) => !test(item)),
];

/** Everything a visitor received: status line aside, every header and the body. */
const received = ({ response, body }: Visit) => `${[...response.headers].flat().join("\n")}\n${body}`;

describe("a cached page", () => {
  it("never sends its placeholder nonce: not on a miss, a hit, HEAD or page data", async () => {
    const path = fresh("/counted");
    const visits = [await visit(path)];
    const placeholder = await storedPlaceholder(path);
    expect(placeholder).toMatch(/^[A-Za-z0-9+/]{24}$/);
    visits.push(await visit(path), await visit(path, { method: "HEAD" }));
    visits.push(await visit(path, { headers: pageData }), await visit(path, { headers: pageData }));
    expect(visits.map(({ line }) => line.cache)).toEqual(["miss", "hit", "hit", "miss", "hit"]);
    for (const seen of visits) expect(received(seen)).not.toContain(placeholder);
  });

  it("never sends the placeholder of a stale entry or of the one that replaced it", async () => {
    const path = fresh("/stale");
    const visits = [await visit(path)];
    const first = await storedPlaceholder(path);
    clockForward(1100); // past the entry's max-age of 1 s
    visits.push(await visit(path));
    const second = await storedPlaceholder(path);
    visits.push(await visit(path));
    expect(visits.map(({ line }) => line.cache)).toEqual(["miss", "stale", "hit"]);
    expect(second).not.toBe(first);
    for (const seen of visits) {
      expect(received(seen)).not.toContain(first);
      expect(received(seen)).not.toContain(second);
    }
  });

  it("is refreshed with a nonce that its stale hit's visitor never saw", async () => {
    const path = fresh("/stale-nonce");
    await visit(path);
    clockForward(1100); // past the entry's max-age of 1 s
    const before = renderedNonces.length;
    const stale = await visit(path);
    expect(stale.line.cache).toBe("stale");
    // The refresh rendered once; the visitor knows the nonce in its CSP header, not that one.
    expect(renderedNonces.length).toBe(before + 1);
    expect(renderedNonces.at(-1)).toMatch(/^[A-Za-z0-9+/]{24}$/);
    expect(renderedNonces.at(-1)).not.toBe(cspNonce(stale.response));
  });

  it("is stored with a placeholder of its own, unlike any other entry's", async () => {
    const [one, two] = [fresh("/counted"), fresh("/counted")];
    await visit(one);
    await visit(two);
    expect(await storedPlaceholder(one)).not.toBe(await storedPlaceholder(two));
  });

  it("leaves a script whose nonce is not the placeholder as it is", async () => {
    const path = fresh("/own-script");
    await visit(path);
    const hit = await visit(path);
    expect(hit.line.cache).toBe("hit");
    const nonce = cspNonce(hit.response);
    const scripts = (await scriptsAndLinks(hit.body)).filter((el) => el.tag === "script");
    const own = scripts.filter((el) => el.attributes.nonce === OWN_NONCE);
    expect(own).toHaveLength(1);
    for (const el of scripts.filter((s) => s !== own[0])) expect(el.attributes.nonce).toBe(nonce);
  });

  it("never hands two visitors the same form key: a page carrying one is not stored", async () => {
    const path = fresh("/keyed");
    const key = (html: string) => /name="_key" value="([^"]+)"/.exec(html)?.[1];
    const pages = [await visit(path), await visit(path), await visit(path)];
    const keys = new Set(pages.map(({ body }) => key(body)));
    expect(keys.size).toBe(3);
    expect(keys.has(undefined)).toBe(false);
    expect(pages.map(({ line }) => line.cache)).toEqual(["miss", "miss", "miss"]);
    const data = [await visit(path, { headers: pageData }), await visit(path, { headers: pageData })];
    const dataKeys = data.map(({ body }) => (JSON.parse(body) as { data: { formKey: string } }).data.formKey);
    expect(new Set([...keys, ...dataKeys]).size).toBe(5);
  });

  it("never stores page data holding a form key issued for it, though the key is no UUID", async () => {
    const path = fresh("/keyed-own");
    const data = [await visit(path, { headers: pageData }), await visit(path, { headers: pageData })];
    const keys = data.map(({ body }) => (JSON.parse(body) as { data: { formKey: string } }).data.formKey);
    for (const key of keys)
      expect(key).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i);
    expect(new Set(keys).size).toBe(2);
    expect(data.map(({ line }) => line.cache)).toEqual(["miss", "miss"]);
  });

  it("is not stored when it shows its nonce outside a nonce attribute", async () => {
    const path = fresh("/nonce-in-text");
    const visits = [await visit(path), await visit(path)];
    expect(visits.map(({ line }) => line.cache)).toEqual(["miss", "miss"]);
    for (const { response, body } of visits) expect(body).toContain(cspNonce(response));
  });

  it("serves a script planted with the nonce its filling visitor was sent inert on every hit", async () => {
    const path = fresh("/planted");
    const miss = await start(path);
    const sent = cspNonce(miss.response)!;
    plant.give(`<script nonce="${sent}">window.planted = 1</script><p>nonce="${sent}"</p>`);
    const filled = await miss.finish();
    expect(filled.line.cache).toBe("miss");
    const placeholder = await storedPlaceholder(path);
    expect(placeholder).toMatch(/^[A-Za-z0-9+/]{24}$/);
    for (const hit of [await visit(path), await visit(path)]) {
      expect(hit.line.cache).toBe("hit");
      const nonce = cspNonce(hit.response);
      const tags = await scriptsAndLinks(hit.body);
      const [planted, own] = partition(tags, (tag) => tag.text.startsWith("window.planted"));
      expect(planted).toHaveLength(1);
      expect(planted[0]!.attributes.nonce).toBe(sent);
      expect(planted[0]!.attributes.nonce).not.toBe(nonce);
      expect(own.filter((tag) => tag.attributes.nonce !== undefined).length).toBeGreaterThan(2);
      for (const tag of own) if (tag.attributes.nonce) expect(tag.attributes.nonce).toBe(nonce);
      expect(hit.body).toContain(`nonce=&quot;${sent}&quot;`);
      expect(received(hit)).not.toContain(placeholder);
    }
  });

  it("serves visitor text naming a placeholder or a stale hit's nonce inert", async () => {
    const path = fresh("/planted-stale");
    const first = await start(path);
    plant.give("<p>Nothing yet</p>");
    await first.finish();
    const old = (await storedPlaceholder(path))!;
    clockForward(1100); // past the entry's max-age of 1 s
    const stale = await start(path);
    const sent = cspNonce(stale.response)!;
    plant.give(
      [old, sent].map((nonce) => `<script nonce="${nonce}">window.planted = "${nonce}"</script>`).join("") +
        `<p>${old} ${sent}</p>`,
    );
    expect((await stale.finish()).line.cache).toBe("stale");
    const current = (await storedPlaceholder(path))!;
    expect(current).not.toBe(old);
    const hit = await visit(path);
    expect(hit.line.cache).toBe("hit");
    const nonce = cspNonce(hit.response)!;
    const scripts = (await scriptsAndLinks(hit.body)).filter((tag) => tag.tag === "script");
    const planted = scripts.filter((tag) => tag.text.startsWith("window.planted"));
    expect(planted.map((tag) => tag.attributes.nonce)).toEqual([old, sent]);
    for (const tag of scripts.filter((tag) => !planted.includes(tag)))
      expect(tag.attributes.nonce).toBe(nonce);
    expect(received(hit)).not.toContain(current);
  });

  it("cannot be asked for another kind's entry through its query string", async () => {
    const path = fresh("/counted");
    await visit(path, { headers: pageData });
    const html = await visit(`${path}&verge-cache=data.${manifest.build}`);
    expect(html.response.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
    expect(html.line.cache).toBe("miss");
  });
});
