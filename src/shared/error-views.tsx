// What a visitor sees when something fails: texts fixed by the protocol (docs/protocol.md), never a message or stack.
import { Component, type ErrorInfo, type ReactNode } from "react";

export const SERVER_ERROR_TEXT =
  "Application error: a server-side exception has occurred (see the server logs for more information).";
export const CLIENT_ERROR_TEXT =
  "Application error: a client-side exception has occurred (see the browser console for more information).";

export function Digest({ digest }: { digest: string }) {
  return (
    <p className="digest">
      Digest: <code data-testid="digest">{digest}</code>
    </p>
  );
}

/** A route (or a streamed section of it) failed; the rest of the page stays usable. */
export function RouteErrorView({ digest }: { digest: string }) {
  return (
    <div role="alert" className="route-error" data-testid="route-error">
      <p>Something went wrong while loading this part of the page.</p>
      <Digest digest={digest} />
      <p>
        <a href="">Reload</a>
      </p>
    </div>
  );
}

/** The whole-page fallback after an uncaught error in the browser: it replaces the layout, so it brings its own <main>. */
export function ClientErrorView({ digest }: { digest?: string }) {
  return (
    <main id="main" tabIndex={-1}>
      <div role="alert" className="app-error" data-testid="app-error">
        <h1>{CLIENT_ERROR_TEXT}</h1>
        {digest ? <Digest digest={digest} /> : null}
        <p className="actions">
          <button type="button" onClick={() => location.reload()}>
            Reload
          </button>{" "}
          <button type="button" onClick={() => history.back()}>
            Back
          </button>
        </p>
      </div>
    </main>
  );
}

interface BoundaryProps {
  children: ReactNode;
  /** Hands the error to the browser reporter. */
  onError?: (error: unknown, info: ErrorInfo) => void;
}

/**
 * The root error boundary. A class because React offers error boundaries only as
 * class components; it is the one class in the codebase that is not an Error.
 */
export class RootErrorBoundary extends Component<BoundaryProps, { error: unknown }> {
  override state: { error: unknown } = { error: null };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    this.props.onError?.(error, info);
  }

  override render() {
    if (this.state.error === null) return this.props.children;
    const digest = (this.state.error as { digest?: unknown }).digest;
    return <ClientErrorView digest={typeof digest === "string" ? digest : undefined} />;
  }
}
