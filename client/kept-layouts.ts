// Which layouts a client navigation keeps on screen: those whose data is there for the same
// params. Their loaders do not run again; the page-data answer leaves their data out.
import type { RouteMatch } from "../src/shared/match-route";
import type { PageData } from "../src/shared/protocol";
import type { RouteModule } from "../src/shared/route-module";
import type { LayoutDefinition } from "../src/shared/layouts";

/** Whether `layout` reads the same params in both. */
const sameParams = (layout: LayoutDefinition, a: PageData["params"], b: PageData["params"]) =>
  layout.params.every((name) => a[name] === b[name]);

/** The layouts of `match` whose data `on` (the page on screen) has for the same params. */
export function keptLayouts(on: PageData, match: RouteMatch<RouteModule> | null): string[] {
  const parts = on.layouts ?? {};
  return (match?.route.layouts ?? [])
    .filter((layout) => {
      const part = parts[layout.id];
      return part !== undefined && "data" in part && sameParams(layout, match!.params, on.params);
    })
    .map((layout) => layout.id);
}

/** `page` with the data of the layouts it left out, from `on`; null if one is not there. */
export function keptData(
  on: PageData,
  page: PageData,
  params: PageData["params"],
  chain: readonly LayoutDefinition[],
): PageData | null {
  const parts = { ...page.layouts };
  for (const layout of chain) {
    if (parts[layout.id]) continue;
    const part = on.layouts?.[layout.id];
    if (!part || !("data" in part) || !sameParams(layout, params, on.params)) return null;
    parts[layout.id] = part;
  }
  return { ...page, layouts: parts };
}
