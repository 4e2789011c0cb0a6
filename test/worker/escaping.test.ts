import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { PAGE_DATA_SCRIPT_ID, type PageData } from "../../src/shared/protocol";
import { scriptSafeJson } from "../../src/shared/serialize";
import { scriptsAndLinks } from "./html";
import { fixtureRequest as request } from "./apps";

const BREAKOUTS = [
  "</script><script>alert(1)</script>",
  "</SCRIPT ><script>alert(1)</script>",
  "<!--",
  "<!-- <script>",
  "a\u2028b\u2029c",
  `"quotes", 'single', back\\slash & ampersand <b>bold</b>`,
];

/** The /echo page for `text`, and the raw text of its embedded page-data script. */
async function echo(text: string) {
  const response = await request(`/echo?text=${encodeURIComponent(text)}`);
  expect(response.status).toBe(200);
  const html = await response.text();
  const elements = await scriptsAndLinks(html);
  const pageData = elements.find((el) => el.attributes.id === PAGE_DATA_SCRIPT_ID);
  return { html, elements, json: pageData?.text };
}

describe("loader data reflected from input (the /echo page)", () => {
  for (const text of BREAKOUTS) {
    it(`cannot break out of the inline JSON and round-trips exactly: ${JSON.stringify(text)}`, async () => {
      const { html, elements, json } = await echo(text);
      // Exactly the page data and the entry: nothing the input could have added.
      expect(elements.filter((el) => el.tag === "script")).toHaveLength(2);
      expect(html.match(/<script\b/gi)).toHaveLength(2);
      expect(json).toBeDefined();
      expect(json).not.toMatch(/<\/script|<!--|\u2028|\u2029/i);
      const page = JSON.parse(json!) as PageData;
      expect(page.data).toEqual({ text });
      expect(page.title).toBe(`Echo: ${text}`);
    });
  }

  it("shows the input as text in the page and the title, never as markup", async () => {
    const { html } = await echo("</script><script>alert(1)</script>");
    expect(html).not.toContain("<script>alert(1)");
    expect(html).toContain("<title>Echo: &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;</title>");
    expect(html).toContain("&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;</strong>");
  });
});

describe("scriptSafeJson", () => {
  it("never contains <, >, & or a line separator, and parses back to the same value", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = scriptSafeJson(value);
        expect(text).not.toMatch(/[<>&\u2028\u2029]/);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
      }),
      { numRuns: 500 },
    );
  });

  it("escapes strings made of the dangerous characters", () => {
    const dangerous = fc.string({
      unit: fc.constantFrom("<", ">", "/", "!", "-", "&", "s", "c", "\u2028", "\u2029", '"', "\\"),
    });
    fc.assert(
      fc.property(dangerous, (text) => {
        const json = scriptSafeJson({ text });
        expect(json).not.toMatch(/<\/script|<!--|[\u2028\u2029]/i);
        expect(JSON.parse(json)).toEqual({ text });
      }),
    );
  });
});

describe("text beyond ASCII (the /echo page)", () => {
  // Accented, a symbol and an emoji outside the BMP, and runs of ASCII around 64 characters long.
  const texts = ["caf\u00e9", "caf\u00e9 \u2615\u{1F680}", "b".repeat(74), "c".repeat(64)];
  for (const text of texts) {
    it(`/echo shows ${JSON.stringify(text).slice(0, 30)} in its heading, title and data, as valid UTF-8`, async () => {
      const response = await request(`/echo?text=${encodeURIComponent(text)}`);
      expect(response.status).toBe(200);
      const html = new TextDecoder("utf-8", { fatal: true }).decode(await response.arrayBuffer());
      expect(html).toContain(`<strong data-testid="echo-output">${text}</strong>`);
      expect(html).toContain(`<title>Echo: ${text}</title>`);
      expect(html).toContain(`"text":"${text}"`);
    });
  }
});
