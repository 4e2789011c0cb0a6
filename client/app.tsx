// The browser's root component: holds the page on screen; the client router changes it.
import { startTransition, useEffect, useLayoutEffect, useMemo, useState } from "react";
import { Root } from "../src/root";
import { routes } from "../src/app/routes";
import { RouterContext } from "../src/router-context";
import type { PageData } from "../src/protocol";
import type { RouteModule } from "../src/route-module";
import { createRouter, type PageState } from "./router";
import { listen } from "./navigation";

export type { PageState } from "./router";

/** The route module a page was rendered with (null for not-found and error pages). */
export async function loadModule(page: PageData): Promise<RouteModule | null> {
  if (page.route === null || page.error) return null;
  const route = routes.find((candidate) => candidate.path === page.route);
  return route ? route.load() : null;
}

/** A page state plus the router's callback for when React has committed it. */
type View = PageState & { committed?: () => void };

export function App({ initial, pageJson }: { initial: PageState; pageJson: string }) {
  const [view, setView] = useState<View>(initial);
  const [announcement, announce] = useState("");
  const router = useMemo(
    () =>
      createRouter(initial.page.build, {
        // A transition keeps the old page on screen until the new one is ready to commit.
        show: (state) => new Promise((committed) => startTransition(() => setView({ ...state, committed }))),
        announce,
      }),
    [],
  );
  // Layout effect: focus and scroll happen before the new page is painted.
  useLayoutEffect(() => view.committed?.(), [view]);
  useEffect(() => listen(router), [router]);
  return (
    <RouterContext value={router}>
      <Root page={view.page} module={view.module} pageJson={pageJson} announcement={announcement} />
    </RouterContext>
  );
}
