// The whole document, rendered by the worker and hydrated by the browser from the same props.
import type { ErrorInfo, ReactNode } from "react";
import { ANNOUNCER_ID, PAGE_DATA_SCRIPT_ID, type HeadTag, type PageData } from "./protocol";
import type { AppDefinition, RouteModule } from "./route-module";
import { RootErrorBoundary, RouteErrorView } from "./error-views";
import type { MountedLayout } from "./layouts";
import type { LayoutsView } from "./layouts-view";
import { useNonce } from "./nonce";

/** React streams a finished Suspense section as `<div hidden id="S:n">` for its script to move in place. */
const STREAMED_WITHOUT_JS = 'div[hidden][id^="S:"]{display:block}';

export interface RootProps {
  /** The product's layout and not-found page. */
  app: Pick<AppDefinition, "Layout" | "NotFound">;
  page: PageData;
  /** The matched route's module; null when nothing matched. */
  module: RouteModule | null;
  /** The layouts around the page, outermost first (from the route table; most pages have none). */
  layouts?: readonly MountedLayout[];
  /**
   * What renders a page inside its layouts (./layouts-view.tsx): given only where a page has
   * layouts, so that the browser loads it only then.
   */
  LayoutsView?: typeof LayoutsView;
  /** The page data as escaped JSON text, embedded for hydration. */
  pageJson: string;
  /** What the live region says: empty on first load, the new page after a client navigation. */
  announcement?: string;
  /** Server only: resources (stylesheet, module preloads) registered through React. */
  resources?: ReactNode;
  onError?: (error: unknown, info: ErrorInfo) => void;
}

export function Root({
  app,
  page,
  module,
  layouts,
  LayoutsView,
  pageJson,
  announcement = "",
  resources,
  onError,
}: RootProps) {
  const nonce = useNonce();
  const { Layout, NotFound } = app;
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{page.title}</title>
        <HeadTags tags={page.head} />
        <link rel="icon" href="data:," />
        {/* Without JavaScript nothing moves streamed Suspense content into place: show it where it arrived. */}
        <noscript>
          <style>{STREAMED_WITHOUT_JS}</style>
        </noscript>
        {resources}
      </head>
      <body>
        <RootErrorBoundary onError={onError}>
          <Layout>
            {layouts?.[0] && LayoutsView ? (
              <LayoutsView
                page={page}
                module={module}
                layouts={layouts}
                NotFound={NotFound}
                RouteView={RouteView}
              />
            ) : (
              <RouteView page={page} module={module} NotFound={NotFound} />
            )}
          </Layout>
        </RootErrorBoundary>
        <div id={ANNOUNCER_ID} className="visually-hidden" aria-live="assertive" aria-atomic="true">
          {announcement}
        </div>
        <script
          type="application/json"
          id={PAGE_DATA_SCRIPT_ID}
          nonce={nonce}
          suppressHydrationWarning
          dangerouslySetInnerHTML={{ __html: pageJson }}
        />
      </body>
    </html>
  );
}

/**
 * The page's other head tags. React keeps <head> in step with the page on screen: a client
 * navigation updates each tag in place, by key, and removes those the new page does not have.
 */
function HeadTags({ tags }: { tags: HeadTag[] }) {
  return tags.map((tag) =>
    "rel" in tag ? (
      <link key={tag.rel} {...tag} />
    ) : (
      <meta key={"name" in tag ? tag.name : tag.property} {...tag} />
    ),
  );
}

export interface RouteViewProps {
  page: PageData;
  module: RouteModule | null;
  NotFound: AppDefinition["NotFound"];
}

function RouteView({ page, module, NotFound }: RouteViewProps) {
  if (page.error) {
    const View = module?.ErrorView ?? RouteErrorView;
    return <View digest={page.error.digest} />;
  }
  if (module === null || page.route === null || page.notFound) return <NotFound />;
  const Page = module.default;
  return <Page data={page.data} params={page.params} actionData={page.actionData} visitor={page.visitor} />;
}
