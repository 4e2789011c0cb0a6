// The browser's root component: holds the current page and renders the document from it.
import { useState } from "react";
import { Root } from "../src/root";
import { routes } from "../src/app/routes";
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
  const [state] = useState(initial);
  return <Root page={state.page} module={state.module} pageJson={pageJson} />;
}
