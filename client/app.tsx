// The browser's root component: holds the current page and renders the document from it.
import { useMemo, useState } from "react";
import { Root } from "../src/root";
import { routes } from "../src/app/routes";
import { RouterContext, type ClientRouter } from "../src/router-context";
import type { PageData } from "../src/protocol";
import type { RouteModule } from "../src/route-module";

export interface PageState {
  page: PageData;
  module: RouteModule | null;
}

/** The route module a page was rendered with (null for not-found and error pages). */
export async function loadModule(page: PageData): Promise<RouteModule | null> {
  if (page.route === null || page.error) return null;
  const route = routes.find((candidate) => candidate.path === page.route);
  return route ? route.load() : null;
}

export function App({ initial, pageJson }: { initial: PageState; pageJson: string }) {
  const [state, setState] = useState(initial);
  // Minimal router: full page loads for navigation; showPage renders data already in hand.
  // (The navigation issue replaces this with client-side navigation.)
  const router = useMemo<ClientRouter>(
    () => ({
      async navigate(href, options) {
        if (options?.replace) location.replace(href);
        else location.assign(href);
      },
      async showPage(page, options) {
        const module = await loadModule(page);
        if (options?.url && options.url !== location.href) {
          history[options.replace ? "replaceState" : "pushState"](null, "", options.url);
        }
        setState({ page, module });
      },
    }),
    [],
  );
  return (
    <RouterContext value={router}>
      <Root page={state.page} module={state.module} pageJson={pageJson} />
    </RouterContext>
  );
}
