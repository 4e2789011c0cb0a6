// Streams a page as HTML: the shell goes out at once, Suspense content follows in the same response.
import { renderToReadableStream } from "react-dom/server";
import { preinit, preloadModule } from "react-dom";
import { Root } from "../shared/root";
import { LayoutsView } from "../shared/layouts-view";
import { NonceContext } from "../shared/nonce";
import { RequestUrlContext } from "../shared/router-context";
import { scriptSafeJson } from "../shared/serialize";
import { appendHeaders } from "../shared/answers";
import { STATUS, VISITOR_KEY, type DeferredMarker, type PageData } from "../shared/protocol";
import type { AppContext } from "./context";
import { pageFiles, type ClientManifest } from "./manifest";
import type { LoadedPage } from "./load-page";
import { DeferredTimeoutError, deferredTimeout, splitDeferred } from "./deferred";
import { answerHeaders, requestNonce } from "./headers";
import { htmlResponse } from "./respond";
import { reporterConfig } from "./reporter-config";
import { routeLine } from "./route-line";
import { vitalsSampled } from "./vitals";
import { logWhenSettled } from "./logger";
import { timed } from "./timings";

/**
 * Registers the page's stylesheets and module chunks with React, which puts them in <head>, and
 * the nonce where Vite's loader of later chunks reads it (`meta[property=csp-nonce]`). Stylesheets
 * are linked, not inlined: inlined, they saved at most one round trip on a first visit and cost
 * every document 0.9 KB more, where a linked one is cached for a year (BENCHMARKS.md, "Lighthouse").
 */
function Resources({
  manifest,
  modules,
  nonce,
}: {
  manifest: ClientManifest;
  /** The page's module and its layouts'. */
  modules: readonly (object | null)[];
  nonce: string;
}) {
  const { css, preloads } = pageFiles(manifest, modules);
  for (const href of css) preinit(href, { as: "style", precedence: "default" });
  for (const href of preloads) preloadModule(href, { as: "script", nonce });
  return (
    <>
      <meta property="csp-nonce" nonce={nonce} />
      {/* Under `vite dev`, inlined: Vite's client adopts each <style> by its id (src/vite/dev-css.ts). */}
      {manifest.devStyles?.map(({ id, text }) => (
        <style key={id} data-vite-dev-id={id} nonce={nonce}>
          {text}
        </style>
      ))}
    </>
  );
}

/**
 * Aborts the render once DEFERRED_TIMEOUT_MS have passed, whatever is still suspended (a lazy
 * component, a use() of a promise that never settles): the stream then ends, and React hands the
 * unfinished sections to the browser with the deadline's digest. Deferred loader values have the
 * same deadline and their own error view: the abort waits until they have settled and React has
 * rendered them (it renders a settled value on a timer of its own, queued before this one).
 */
export function renderDeadline(
  c: AppContext,
  deferred: Promise<unknown>,
): { signal: AbortSignal; done: () => void } {
  const controller = new AbortController();
  const ms = deferredTimeout(c.env);
  const reason = () => new DeferredTimeoutError(`The page did not finish rendering within ${ms} ms`);
  let finished = false;
  const timer = setTimeout(() => {
    void deferred.then(() => setTimeout(() => finished || controller.abort(reason()), 0));
  }, ms);
  return {
    signal: controller.signal,
    done: () => {
      finished = true;
      clearTimeout(timer);
    },
  };
}

/** The document of `page` as React renders it, with the data as rendered (`live`) and as embedded (`json`). */
export function documentTree(
  c: AppContext,
  { module, layouts }: Pick<LoadedPage, "module" | "layouts">,
  page: PageData,
  nonce: string,
  pageJson: string,
) {
  const app = c.get("app");
  const modules = layouts.length === 0 ? [module] : [...layouts.map((layout) => layout.module), module];
  const tree = (
    <NonceContext value={nonce}>
      <Root
        app={app}
        page={page}
        module={module}
        layouts={layouts}
        LayoutsView={LayoutsView}
        pageJson={pageJson}
        resources={<Resources manifest={app.manifest} modules={modules} nonce={nonce} />}
      />
    </NonceContext>
  );
  // The navigation hooks read the request's address (useSearchParams).
  return <RequestUrlContext value={c.req.url}>{tree}</RequestUrlContext>;
}

/**
 * The page's deferred values, its loader's and its per-visitor loader's: what it renders with,
 * what it embeds, and when they have all settled.
 */
export function pageDeferred(c: AppContext, loaded: LoadedPage) {
  const { page, visitor } = loaded;
  const data = splitDeferred(c, page.data);
  const hole = visitor ? splitDeferred(c, { [VISITOR_KEY]: visitor }) : null;
  const live: PageData = { ...page, data: data.live };
  const json: PageData = { ...page, data: data.json };
  if (hole) {
    live.visitor = (hole.live as Record<string, DeferredMarker>)[VISITOR_KEY];
    json.visitor = (hole.json as Record<string, DeferredMarker>)[VISITOR_KEY];
  }
  return { live, json, settled: Promise.all([data.settled, hole?.settled]) };
}

/**
 * The embedded page data's text: the page as the browser hydrates it, its route line (the browser
 * learns every other line when it needs it: route-discovery.ts), and the reporter's settings.
 */
export function embeddedJson(
  c: AppContext,
  json: PageData,
  { module, layouts }: Pick<LoadedPage, "module" | "layouts">,
) {
  const { routes, manifest } = c.get("app");
  const route = json.route === null ? undefined : routes.find((candidate) => candidate.path === json.route);
  const line =
    route &&
    routeLine(
      manifest,
      route,
      module,
      layouts.map((layout) => layout.module),
    );
  return scriptSafeJson({ ...json, line, reporter: reporterConfig(c.env), vitals: vitalsSampled(c) });
}

export async function renderDocument(
  c: AppContext,
  loaded: LoadedPage,
  /** Added to the HTML headers: a refused action's own (Retry-After). */
  headers?: Readonly<Record<string, string>>,
  /** The response's, or one no visitor is sent when the page may be stored (page-cache.ts). */
  nonce: string = requestNonce(c),
): Promise<Response> {
  const app = c.get("app");
  const capture = c.get("capture");
  const { page, module } = loaded;
  const { live, json, settled } = pageDeferred(c, loaded);
  const tree = documentTree(c, loaded, live, nonce, embeddedJson(c, json, loaded));
  const deadline = renderDeadline(c, settled);
  let stream: Awaited<ReturnType<typeof renderToReadableStream>>;
  try {
    stream = await timed(c, "shell", () =>
      renderToReadableStream(tree, {
        nonce,
        bootstrapModules: [app.manifest.entry],
        signal: deadline.signal,
        // Errors after the shell: the section is handed to the browser with this digest. A visitor
        // who leaves mid-stream aborts the request's signal (the `enable_request_signal` flag), and
        // React then aborts the pending sections: not an error.
        onError: (error) => (c.req.raw.signal.aborted ? undefined : capture(error)),
      }),
    );
  } catch (error) {
    deadline.done();
    // A page with an error view of its own shows its render's failure there, inside its layouts.
    if (!module?.ErrorView || page.error) throw error;
    const failed: PageData = {
      ...page,
      data: null,
      status: STATUS.serverError,
      error: { digest: capture(error) },
    };
    return renderDocument(c, { ...loaded, page: failed, visitor: undefined }, headers, nonce);
  }
  stream.allReady.then(deadline.done, deadline.done);
  logWhenSettled(c.get("log"), stream.allReady);
  const response = htmlResponse(stream, page.status, {
    ...answerHeaders("html", module, page.status),
    ...headers,
  });
  appendHeaders(response.headers, loaded.headers);
  return response;
}
