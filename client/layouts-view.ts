// What renders a page inside its layouts (src/shared/layouts-view.tsx), loaded with the first page
// that has any: most pages have none, and their first load carries none of it.
import type { LayoutsView } from "../src/shared/layouts-view";

let loaded: typeof LayoutsView | undefined;

export const loadLayoutsView = () =>
  import("../src/shared/layouts-view").then((module) => void (loaded = module.LayoutsView));

/** The view, once loadLayoutsView() has settled. */
export const layoutsView = () => loaded;
