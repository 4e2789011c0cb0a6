// The browser's root component: holds the page on screen; the client router changes it.
import { useEffect, useLayoutEffect, useMemo, useState } from "react";
import { Root } from "../src/shared/root";
import { RouterContext } from "../src/shared/router-context";
import type { PageData } from "../src/shared/protocol";
import type { AppDefinition } from "../src/shared/route-module";
import type { LayoutModule } from "../src/shared/layouts";
import { layoutsView, loadLayoutsView } from "./layouts-view";
import type { PageState } from "./router";
import { deferredRouter } from "./router-loader";
import { listen } from "./navigation";
import { routeOf } from "./route-lines";
import { routerForDev } from "../src/shared/dev-seam";
import { pageHandedToReact } from "../src/shared/submit-transition";

export type { PageState } from "./router";

/**
 * The modules a page was rendered with: its route module (null for a path no route matches; an
 * error page's too, for its own ErrorView) and its layouts', each chunk loaded at once. The page
 * data names them (its route line).
 */
export async function loadRoute(page: PageData): Promise<PageState> {
  const route = page.line && routeOf(page.line);
  const chain = route?.layouts ?? [];
  const [module, ...layouts] = await Promise.all([
    route ? route.load() : null,
    ...chain.map((layout) => layout.load()),
    chain[0] && loadLayoutsView(),
  ]);
  return { page, module, layouts: chain.map(({ id }, i) => ({ id, module: layouts[i] as LayoutModule })) };
}

/** A page state plus the router's callback for when React has committed it. */
type View = PageState & { committed?: () => void };

export interface AppProps {
  app: AppDefinition;
  initial: PageState;
  pageJson: string;
}

export function App({ app, initial, pageJson }: AppProps) {
  const [view, setView] = useState<View>(initial);
  const [announcement, announce] = useState("");
  const router = useMemo(
    () =>
      deferredRouter(initial, {
        // Called inside the router's transition: the old page stays on screen until the new one is ready.
        show: (state) =>
          new Promise((committed) => {
            setView({ ...state, committed });
            pageHandedToReact(); // a submission's transition may end now (src/shared/submit-transition.ts)
          }),
        announce,
      }),
    [],
  );
  // Development only (a production build drops it): `npm run dev` refetches the page's data through
  // the router once the worker runs the save (client/dev.ts).
  if (process.env.NODE_ENV !== "production") routerForDev(router);
  // Layout effect: focus and scroll happen before the new page is painted.
  useLayoutEffect(() => view.committed?.(), [view]);
  useEffect(() => listen(router), [router]);
  return (
    <RouterContext value={router}>
      <Root
        app={app}
        page={view.page}
        module={view.module}
        layouts={view.layouts}
        LayoutsView={layoutsView()}
        pageJson={pageJson}
        announcement={announcement}
      />
    </RouterContext>
  );
}
