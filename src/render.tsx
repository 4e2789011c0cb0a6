// Streams a page as HTML: the shell goes out at once, Suspense content follows in the same response.
import { renderToReadableStream } from "react-dom/server";
import { preinit, preloadModule } from "react-dom";
import { Root } from "./root";
import { NonceContext } from "./nonce";
import { clientManifest, modulePreloads } from "./manifest";
import { scriptSafeJson } from "./serialize";
import { splitDeferred, type LoadedPage } from "./page-load";
import { htmlResponse } from "./http";
import { PAGE_DATA_HEADER } from "./protocol";
import type { AppContext } from "./context";
import { reporterConfig } from "./relay";
import { logWhenSettled } from "./logger";
import { requestNonce } from "./security-headers";

/** HTML varies on the page-data marker (same URL, JSON answer); a cached copy must be revalidated. */
export const HTML_HEADERS = { Vary: PAGE_DATA_HEADER, "Cache-Control": "private, no-cache" };

/** Registers the stylesheet and the route's module chunks with React, which puts them in <head>. */
function Resources({ route, nonce }: { route: string | null; nonce?: string }) {
  if (clientManifest.css) preinit(clientManifest.css, { as: "style", precedence: "default" });
  for (const href of modulePreloads(route)) preloadModule(href, { as: "script", nonce });
  return null;
}

export async function renderDocument(c: AppContext, loaded: LoadedPage): Promise<Response> {
  const nonce = requestNonce(c);
  const { page, module } = loaded;
  // Deferred values settle by their deadline, so the stream always ends: React needs no abort signal.
  const { live, json } = splitDeferred(c, page.data);
  const tree = (
    <NonceContext value={nonce}>
      <Root
        page={{ ...page, data: live }}
        module={module}
        pageJson={scriptSafeJson({ ...page, data: json, reporter: reporterConfig(c.env) })}
        resources={<Resources route={page.route} nonce={nonce} />}
      />
    </NonceContext>
  );
  const stream = await renderToReadableStream(tree, {
    nonce,
    bootstrapModules: [clientManifest.entry],
    // Errors after the shell: the boundary renders on the client; the digest goes with it. A
    // visitor who leaves mid-stream aborts the request's signal (the `enable_request_signal`
    // compatibility flag), and React then aborts the pending boundaries: not an error. The signal
    // is read only on an error: reading it sets up the runtime's abort tracking, 8 µs a request.
    onError: (error) => (c.req.raw.signal.aborted ? undefined : c.get("capture")(error)),
  });
  logWhenSettled(c.get("log"), stream.allReady);
  return htmlResponse(c, stream, page.status, HTML_HEADERS);
}
