// Helpers for worker tests: call the real worker and read its HTML with workerd's own parser.
import { exports } from "cloudflare:workers";

export const ORIGIN = "http://localhost";

/** Calls the worker (the real entry, through workerd) with a path or a full URL. */
export function request(pathOrUrl: string, init?: RequestInit): Promise<Response> {
  const url = pathOrUrl.startsWith("http") ? pathOrUrl : `${ORIGIN}${pathOrUrl}`;
  return exports.default.fetch(url, init);
}

export interface Tag {
  tag: string;
  attributes: Record<string, string>;
  /** Text content (scripts only). */
  text: string;
}

/**
 * An HTMLRewriter element's attributes. The DOM lib (for client code) and the workers types
 * both declare a global Element; the DOM one wins, so the pairs iterator is typed here.
 */
function attributesOf(element: { attributes: unknown }): Record<string, string> {
  return Object.fromEntries(element.attributes as Iterable<[string, string]>);
}

/** Every <script> and <link>, with attributes and (for scripts) raw text, in document order. */
export async function scriptsAndLinks(html: string): Promise<Tag[]> {
  const found: Tag[] = [];
  let current: Tag | null = null;
  const rewriter = new HTMLRewriter()
    .on("script", {
      element(element) {
        current = { tag: "script", attributes: attributesOf(element), text: "" };
        found.push(current);
      },
      text(chunk) {
        if (current) current.text += chunk.text;
      },
    })
    .on("link", {
      element(element) {
        found.push({ tag: "link", attributes: attributesOf(element), text: "" });
      },
    });
  await rewriter.transform(new Response(html)).text();
  return found;
}

/** The nonce a Content-Security-Policy header allows scripts with. */
export function cspNonce(response: Response): string | undefined {
  const csp = response.headers.get("content-security-policy") ?? "";
  return /'nonce-([^']+)'/.exec(csp)?.[1];
}

/** The text of <main>, tags stripped: what the page says. */
export function mainText(html: string): string {
  const main = /<main\b[^>]*>([\s\S]*?)<\/main>/.exec(html)?.[1] ?? "";
  return main
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** The digest a fallback or route error view shows in the page. */
export const digestIn = (html: string) =>
  /Digest: <code data-testid="digest">([0-9a-z]+)<\/code>/.exec(html)?.[1];
