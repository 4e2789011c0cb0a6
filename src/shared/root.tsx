// The whole document, rendered by the worker and hydrated by the browser from the same props.
import type { ErrorInfo, ReactNode } from "react";
import { ANNOUNCER_ID, PAGE_DATA_SCRIPT_ID, type HeadTag, type PageData } from "./protocol";
import type { AppDefinition, RouteModule } from "./route-module";
import { LayoutErrorBoundary, RootErrorBoundary, RouteErrorView } from "./error-views";
import { LayoutDataProvider, type MountedLayout } from "./layouts";
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
  layouts = [],
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
            {layouts.length === 0 ? (
              <RouteView page={page} module={module} NotFound={NotFound} />
            ) : (
              <LayoutsView page={page} module={module} layouts={layouts} NotFound={NotFound} />
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

interface RouteViewProps {
  page: PageData;
  module: RouteModule | null;
  NotFound: AppDefinition["NotFound"];
}

function RouteView({ page, module, NotFound }: RouteViewProps) {
  if (page.error) return <RouteErrorView digest={page.error.digest} />;
  if (module === null || page.route === null) return <NotFound />;
  const Page = module.default;
  return <Page data={page.data} params={page.params} actionData={page.actionData} visitor={page.visitor} />;
}

/**
 * The page inside its layouts, outermost first. A layout's error view stands in for what is below
 * it when that failed (a loader's digest, or a render error in the browser): the page's failure
 * shows the innermost layout's view, a layout loader's failure the view of the layout above it
 * (the app's own route error view above the outermost). Every layout's chrome above stays.
 */
function LayoutsView({
  page,
  module,
  layouts,
  NotFound,
}: RouteViewProps & { layouts: readonly MountedLayout[] }) {
  const parts = page.layouts ?? {};
  const data: Record<string, unknown> = {};
  let depth = layouts.length;
  let failure = page.error;
  for (let i = 0; i < layouts.length; i++) {
    const part = parts[layouts[i]!.id];
    if (part && "error" in part) {
      depth = i;
      failure = part.error;
      break;
    }
    data[layouts[i]!.id] = part?.data;
  }
  const View = (depth > 0 && layouts[depth - 1]!.module.ErrorView) || RouteErrorView;
  let inner: ReactNode =
    failure !== undefined ? (
      <View digest={failure.digest} />
    ) : (
      <RouteView page={page} module={module} NotFound={NotFound} />
    );
  for (let i = depth - 1; i >= 0; i--) {
    const { id, module: layout } = layouts[i]!;
    const Layout = layout.default;
    inner = (
      <Layout key={id} data={data[id]} params={page.params}>
        <LayoutErrorBoundary View={layout.ErrorView ?? RouteErrorView} resetKey={page}>
          {inner}
        </LayoutErrorBoundary>
      </Layout>
    );
  }
  return <LayoutDataProvider value={data}>{inner}</LayoutDataProvider>;
}
