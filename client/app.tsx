// The browser's root component: holds the page on screen; the client router changes it.
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { Root } from "../src/shared/root";
import { RouterContext } from "../src/shared/router-context";
import type { PageData } from "../src/shared/protocol";
import type { AppDefinition, RouteModule, RouteTable } from "../src/shared/route-module";
import type { LayoutModule } from "../src/shared/layouts";
import type { PageState } from "./router";
import { deferredRouter } from "./router-loader";
import { listen } from "./navigation";

export type { PageState } from "./router";

/**
 * The modules a page was rendered with: its route module (null for not-found and error pages) and
 * its layouts', each chunk loaded at once.
 */
export async function loadRoute(routes: RouteTable, page: PageData): Promise<PageState> {
  const route = page.route === null ? undefined : routes.find((candidate) => candidate.path === page.route);
  if (!route) return { page, module: null, layouts: [] };
  const definitions = route.layouts ?? [];
  const [module, ...layouts] = await Promise.all([
    page.error ? null : route.load(),
    ...definitions.map((definition) => definition.load()),
  ]);
  return {
    page,
    module: module as RouteModule | null,
    layouts: layouts.map((layout, i) => ({ id: definitions[i]!.id, module: layout as LayoutModule })),
  };
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
  // What is on screen, for the router: the layouts whose data a navigation may keep.
  const shown = useRef<PageState>(initial);
  shown.current = view;
  const router = useMemo(
    () =>
      deferredRouter(app.routes, initial.page.build, {
        // Called inside the router's transition: the old page stays on screen until the new one is ready.
        show: (state) => new Promise((committed) => setView({ ...state, committed })),
        announce,
        shown: () => shown.current,
      }),
    [],
  );
  // Development only (a production build drops it): `npm run dev` refetches the page's data through
  // the router after the worker was rebuilt (client/dev/refresh.ts).
  if (process.env.NODE_ENV !== "production") Object.assign(globalThis, { __vergeRouter: router });
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
        pageJson={pageJson}
        announcement={announcement}
      />
    </RouterContext>
  );
}
