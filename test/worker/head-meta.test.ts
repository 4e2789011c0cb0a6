// A page's head tags besides its title (description, canonical address, robots, Open Graph and
// Twitter card): declared by the page module, defaulted by the product, rendered by the server
// and carried, resolved, in page data for the browser to swap on a client navigation.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { visitor } from "verge/test";
import { page, type RouteModule } from "../../src/shared/route-module";
import { PAGE_DATA_SCRIPT_ID, type HeadTag, type PageData } from "../../src/shared/protocol";
import { meta as productMeta } from "../../src/app/layout";
import { appWith } from "./apps";
import { ORIGIN } from "./action-helpers";
import { request, scriptsAndLinks } from "./html";

/** An attribute's value as a browser reads it: HTMLRewriter gives it as written, entities and all. */
const ENTITIES: Record<string, string> = { amp: "&", quot: '"', lt: "<", gt: ">" };
const decoded = (raw: string) =>
  raw.replace(/&(?:#x([0-9a-f]+)|#([0-9]+)|([a-z]+));/gi, (whole, hex, dec, name) =>
    hex
      ? String.fromCodePoint(parseInt(hex, 16))
      : dec
        ? String.fromCodePoint(Number(dec))
        : (ENTITIES[name] ?? whole),
  );

/** What the document puts in every head, whatever the page: not the page's own tags. */
const DOCUMENT_TAGS = new Set(["viewport", "icon", "stylesheet", "modulepreload"]);

/** The <head>'s <meta> and <link> tags of the page, as `name or property or rel` -> values, in order. */
async function headTags(html: string): Promise<Record<string, string[]>> {
  const head = html.slice(0, html.indexOf("</head>"));
  const tags: Record<string, string[]> = {};
  const add = (key: string | null, value: string | null) => {
    if (key === null || value === null || DOCUMENT_TAGS.has(key)) return;
    (tags[key] ??= []).push(decoded(value));
  };
  await new HTMLRewriter()
    .on("meta", {
      element(el) {
        add(el.getAttribute("name") ?? el.getAttribute("property"), el.getAttribute("content"));
      },
    })
    .on("link", {
      element(el) {
        add(el.getAttribute("rel"), el.getAttribute("href"));
      },
    })
    .transform(new Response(head))
    .text();
  return tags;
}

/** Page data's head tags in the same form. */
function byKey(head: HeadTag[]): Record<string, string[]> {
  const tags: Record<string, string[]> = {};
  for (const tag of head) {
    const [key, value] =
      "rel" in tag ? [tag.rel, tag.href] : ["name" in tag ? tag.name : tag.property, tag.content];
    (tags[key] ??= []).push(value);
  }
  return tags;
}

const item: RouteModule = {
  title: (data: { id: string }) => `Item ${data.id}`,
  default: () => null,
  loader: ({ params }) => ({ id: params.id! }),
  meta: (data: { id: string }) => ({
    description: `About item ${data.id}: "<b>bold</b>" & more`,
    canonical: `/items/${data.id}?view=full`,
    robots: "noindex, nofollow",
    image: "/assets/item.png",
  }),
};
const bare: RouteModule = { title: "Bare", default: () => null };

const items = () =>
  appWith([page("/items/:id", async () => item), page("/bare", async () => bare)], {
    reportError: () => {},
    log: () => {},
  });

async function send(path: string, init: RequestInit = {}, vars: Partial<Env> = {}) {
  const ctx = createExecutionContext();
  const response = await items().fetch(new Request(`${ORIGIN}${path}`, init), { ...env, ...vars }, ctx);
  const body = await response.text();
  await waitOnExecutionContext(ctx);
  return { response, body };
}

/** A page's data, as the page's script asks for it (verge/test), with `vars` over the env. */
async function pageDataOf(path: string, vars: Partial<Env> = {}) {
  const response = await visitor({ worker: items(), env: vars }).data(path);
  return { response, body: await response.text() };
}

describe("a page's head tags", () => {
  it("renders what the page computes from its loader's data: description, robots, canonical, image", async () => {
    const { body } = await send("/items/42");
    const tags = await headTags(body);
    expect(tags.description).toEqual(['About item 42: "<b>bold</b>" & more']);
    expect(tags.robots).toEqual(["noindex, nofollow"]);
    expect(tags.canonical).toEqual([`${ORIGIN}/items/42?view=full`]);
    expect(tags["og:title"]).toEqual(["Item 42"]);
    expect(tags["og:description"]).toEqual(tags.description);
    expect(tags["og:url"]).toEqual(tags.canonical);
    expect(tags["og:image"]).toEqual([`${ORIGIN}/assets/item.png`]);
    expect(tags["og:type"]).toEqual(["website"]);
    expect(tags["twitter:card"]).toEqual(["summary_large_image"]);
  });

  it("escapes the page's values inside their attributes", async () => {
    const { body } = await send("/items/42");
    expect(body).toContain('content="About item 42: &quot;&lt;b&gt;bold&lt;/b&gt;&quot; &amp; more"');
  });

  it("gives a page without its own meta the product's description and its path as canonical address", async () => {
    const tags = await headTags((await send("/bare?utm_source=mail")).body);
    expect(tags.description).toEqual([productMeta.description]);
    expect(tags.canonical).toEqual([`${ORIGIN}/bare`]);
    expect(tags.robots).toBeUndefined();
    expect(tags["og:image"]).toBeUndefined();
    expect(tags["twitter:card"]).toEqual(["summary"]);
  });

  it("writes canonical and image addresses on CANONICAL_ORIGIN when it is set", async () => {
    const vars = { CANONICAL_ORIGIN: "https://verge.example/ignored/path" };
    const tags = await headTags((await send("/items/7", {}, vars)).body);
    expect(tags.canonical).toEqual(["https://verge.example/items/7?view=full"]);
    expect(tags["og:image"]).toEqual(["https://verge.example/assets/item.png"]);
  });

  it("answers 500 with a digest, not wrong addresses, when CANONICAL_ORIGIN is not a URL", async () => {
    const { response, body } = await send("/bare", {}, { CANONICAL_ORIGIN: "verge.example" });
    expect(response.status).toBe(500);
    expect(body).toContain("Digest:");
  });

  it("carries the same tags in the embedded page data and in page-data answers", async () => {
    const { body } = await send("/items/42");
    const rendered = await headTags(body);
    const script = (await scriptsAndLinks(body)).find((el) => el.attributes.id === PAGE_DATA_SCRIPT_ID);
    expect(byKey((JSON.parse(script!.text) as PageData).head)).toEqual(rendered);
    const answer = await pageDataOf("/items/42");
    expect(answer.response.status).toBe(200);
    expect(byKey((JSON.parse(answer.body) as PageData).head)).toEqual(rendered);
  });
});

describe("the product's head tags", () => {
  it("give the not-found page its own description, robots noindex and no canonical address", async () => {
    const response = await request("/no/such/page");
    const tags = await headTags(await response.text());
    expect(tags.description).toEqual(["There is no page at this address."]);
    expect(tags.robots).toEqual(["noindex"]);
    expect(tags.canonical).toBeUndefined();
  });

  it("give the guestbook a description of its own and its address without the rest of the query", async () => {
    const first = await headTags(await (await request("/guestbook")).text());
    expect(first.description?.[0]).toMatch(/guestbook/i);
    expect(first.canonical).toEqual([`${ORIGIN}/guestbook`]);
    const answer = (await (
      await request("/guestbook?page=1&utm_source=mail&_data=1", { headers: { "X-Page-Data": "1" } })
    ).json()) as PageData;
    expect(byKey(answer.head)).toMatchObject({ description: first.description, canonical: first.canonical });
  });
});
