// GET /robots.txt: every crawler may read every page; the sitemap lists them.
import { href, type EndpointArgs } from "verge";
import { siteOrigin } from "../site-origin";

export function GET({ url, env }: EndpointArgs<"/robots.txt">) {
  const sitemap = new URL(href("/sitemap.xml"), siteOrigin(env, url)).href;
  return new Response(`User-agent: *\nAllow: /\n\nSitemap: ${sitemap}\n`, {
    headers: { "Content-Type": "text/plain; charset=utf-8" },
  });
}
