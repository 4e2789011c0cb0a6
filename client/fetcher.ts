// useFetcher()'s requests (src/shared/fetcher.tsx), loaded with a page's first fetcher call: an
// action posted as a <Form> posts it, and another page's data as a navigation loads it.
import type { FetcherTransport } from "../src/shared/router-context";
import { formBody, postAction } from "./form-submit";
import { requestPage } from "./prefetch";

/** `build`: the build the page was rendered with, sent with every request (X-Build). */
export function fetcherTransport(build: string): FetcherTransport {
  return {
    post: (url, body, actionName) =>
      postAction(
        url,
        body instanceof FormData ? formBody(body) : new URLSearchParams(body),
        actionName,
        build,
      ),
    load: (url) => requestPage(url, build).catch(() => null),
  };
}
