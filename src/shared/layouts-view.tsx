// A page inside its layouts: each layout's component, data and error boundary, outermost first.
// Its own module, so the browser loads it only for pages below a layout.
import { Component, type ComponentType, type ReactNode } from "react";
import { RouteErrorView } from "./error-views";
import type { MountedLayout } from "./layouts";
import { LayoutDataProvider } from "./layout-data";
import type { RouteViewProps } from "./root";

/**
 * The page inside its layouts, outermost first. A layout's error view stands in for what is below
 * it when that failed (a loader's digest, or a render error in the browser): the page's failure
 * shows its own ErrorView or the innermost layout's, a layout loader's failure the view of the
 * layout above it (the app's own route error view above the outermost). A notFound() shows the
 * app's not-found view in the same place. Every layout's chrome above stays.
 */
/** A render error in the browser below a layout without a view of its own: a digest only if the server gave one. */
function ClientRouteError({ digest }: { digest?: string }) {
  if (digest) return <RouteErrorView digest={digest} />;
  return (
    <div role="alert" className="route-error" data-testid="route-error">
      <p>Something went wrong while showing this part of the page.</p>
      <p>
        <a href="">Reload</a>
      </p>
    </div>
  );
}

export function LayoutsView({
  page,
  module,
  layouts,
  NotFound,
  RouteView,
}: RouteViewProps & { layouts: readonly MountedLayout[]; RouteView: ComponentType<RouteViewProps> }) {
  const parts = page.layouts ?? {};
  const data: Record<string, unknown> = {};
  let depth = layouts.length;
  let failure = page.error;
  for (let i = 0; i < layouts.length; i++) {
    const part = parts[layouts[i]!.id];
    if (part && !("data" in part)) {
      depth = i;
      failure = "error" in part ? part.error : undefined;
      break;
    }
    data[layouts[i]!.id] = part?.data;
  }
  const own = depth === layouts.length ? module?.ErrorView : undefined;
  const View = own || (depth > 0 && layouts[depth - 1]!.module.ErrorView) || RouteErrorView;
  let inner: ReactNode =
    failure !== undefined ? (
      <View digest={failure.digest} />
    ) : depth < layouts.length ? (
      <NotFound />
    ) : (
      <RouteView page={page} module={module} NotFound={NotFound} />
    );
  // A page with a view of its own shows it for a render error in the browser too.
  if (own && failure === undefined) {
    inner = (
      <LayoutErrorBoundary View={own} resetKey={page}>
        {inner}
      </LayoutErrorBoundary>
    );
  }
  for (let i = depth - 1; i >= 0; i--) {
    const { id, module: layout } = layouts[i]!;
    const Layout = layout.default;
    inner = (
      <Layout key={id} data={data[id]} params={page.params}>
        <LayoutErrorBoundary View={layout.ErrorView ?? ClientRouteError} resetKey={page}>
          {inner}
        </LayoutErrorBoundary>
      </Layout>
    );
  }
  return <LayoutDataProvider value={data}>{inner}</LayoutDataProvider>;
}

/**
 * A layout's boundary around what is below it: a render error there in the browser shows the
 * layout's error view inside the layout's chrome, until the visitor goes to another page.
 */
export class LayoutErrorBoundary extends Component<
  { children: ReactNode; View: ComponentType<{ digest?: string }>; resetKey: unknown },
  { error: unknown; at: unknown }
> {
  override state: { error: unknown; at: unknown } = { error: null, at: null };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  static getDerivedStateFromProps(
    props: { resetKey: unknown },
    state: { error: unknown; at: unknown },
  ): Partial<{ error: unknown; at: unknown }> | null {
    // Another page below: the error was the old page's.
    if (state.error !== null && state.at !== null && state.at !== props.resetKey)
      return { error: null, at: null };
    if (state.error !== null && state.at === null) return { at: props.resetKey };
    return null;
  }

  override render() {
    if (this.state.error === null) return this.props.children;
    const digest = (this.state.error as { digest?: unknown } | null)?.digest;
    const { View } = this.props;
    return <View digest={typeof digest === "string" ? digest : undefined} />;
  }
}
