// GET /sitemap.xml: every page without params (but those marked noindex: /sign-in, the account's),
// and each page of the guestbook, as absolute URLs.
import { href, type EndpointArgs } from "verge";
import { routes } from "../routes";
import { countEntries, pagesOf } from "../db/guestbook.server";
import { siteOrigin } from "../site-origin";

/** The sitemap protocol's limit: past it, a sitemap index would be needed. */
const MAX_URLS = 50_000;

const escapeXml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c]!,
  );

/** Whether search engines may list the page: neither it nor a layout above says robots "noindex". */
async function indexed(route: (typeof routes)[number]): Promise<boolean> {
  const modules: unknown[] = await Promise.all([
    route.load(),
    ...(route.layouts ?? []).map((layout) => layout.load()),
  ]);
  return !modules.some((module) => {
    const meta = (module as { meta?: unknown }).meta;
    return (
      typeof meta === "object" &&
      meta !== null &&
      /noindex/i.test(String((meta as { robots?: unknown }).robots))
    );
  });
}

export async function GET({ url, env }: EndpointArgs<"/sitemap.xml">) {
  const origin = siteOrigin(env, url);
  const listed = await Promise.all(
    routes
      .filter((route) => route.kind === "page" && !route.path.includes(":"))
      .map(async (route) => ((await indexed(route)) ? [route.path] : [])),
  );
  const paths: string[] = listed.flat();
  // The guestbook's first page is /guestbook itself (its canonical address); the others by number.
  const pages = pagesOf(await countEntries(env.DB));
  for (let page = 2; page <= pages && paths.length < MAX_URLS; page++)
    paths.push(`${href("/guestbook")}?page=${page}`);
  const entries = paths.map((path) => `<url><loc>${escapeXml(new URL(path, origin).href)}</loc></url>`);
  const xml =
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries.join("\n")}\n</urlset>\n`;
  return new Response(xml, { headers: { "Content-Type": "application/xml; charset=utf-8" } });
}
