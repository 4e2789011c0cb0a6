// A page's head tags besides its title: the product's defaults under the page's own `meta`, made
// into the <meta> and <link> tags page data carries (absolute URLs, Open Graph, Twitter card).
import type { HeadTag } from "../shared/protocol";
import type { PageMeta, RouteModule } from "../shared/route-module";
import { metaOf } from "../shared/page-view";
import type { AppContext } from "./context";

/** CANONICAL_ORIGIN (the site's public address, e.g. a custom domain), or the request's own. */
function canonicalOrigin(c: AppContext, url: URL): string {
  const configured = c.env.CANONICAL_ORIGIN;
  if (!configured) return url.origin;
  const origin = URL.canParse(configured) ? new URL(configured).origin : "null";
  // A typo here would put wrong addresses in every page: fail loudly instead (500, logged).
  if (origin === "null")
    throw new TypeError(`CANONICAL_ORIGIN is not an origin: ${JSON.stringify(configured)}`);
  return origin;
}

/**
 * The head of a page rendered from `module` with `data` (null module: the not-found page). A
 * page's canonical address defaults to its path without the query: the query of a page that
 * depends on one (a page number) belongs in its own `meta`. A missing page has none.
 */
export function headTags(
  c: AppContext,
  url: URL,
  module: RouteModule | null,
  data: unknown,
  title: string,
  /** The head tags of the layouts around the page, outermost first: each over the one above. */
  layouts: readonly (PageMeta | undefined)[] = [],
): HeadTag[] {
  const app = c.get("app");
  let own = app.notFoundMeta;
  if (module) own = metaOf(module, data);
  const origin = canonicalOrigin(c, url);
  const meta: PageMeta = Object.assign({}, app.meta, ...layouts, module && { canonical: url.pathname }, own);
  // Relative to the origin, not to `url`: a path a page declares means the same on every page.
  const canonical = meta.canonical && new URL(meta.canonical, origin).href;
  const image = meta.image && new URL(meta.image, origin).href;
  const { description, robots } = meta;
  const tags: (HeadTag | false | undefined | "")[] = [
    description && { name: "description", content: description },
    robots && { name: "robots", content: robots },
    canonical && { rel: "canonical", href: canonical },
    { property: "og:type", content: "website" },
    { property: "og:title", content: title },
    description && { property: "og:description", content: description },
    canonical && { property: "og:url", content: canonical },
    image && { property: "og:image", content: image },
    { name: "twitter:card", content: image ? "summary_large_image" : "summary" },
  ];
  return tags.filter((tag) => !!tag);
}
