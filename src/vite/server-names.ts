// The export names that are the worker's alone, in one place: what the browser's copy of a module
// loses (server-exports.ts) and what the build checks look for (test/node, test/hostile).

/** Exports only the worker runs: the browser's module loses them, and whatever only they use. */
export const SERVER_ONLY_EXPORTS: readonly string[] = [
  // a page's and a layout's
  "loader",
  "visitorLoader",
  "actions",
  "middleware",
  // an endpoint's handlers and Hono middleware
  "GET",
  "POST",
  "PUT",
  "PATCH",
  "DELETE",
  "use",
];

/**
 * Exports only the worker reads: the browser's module keeps each as `undefined` (an import of it
 * still resolves), and loses whatever only its value used.
 */
export const WORKER_VALUE_EXPORTS: readonly string[] = [
  "title",
  "meta",
  "cache",
  "cacheControl",
  "crossSite",
];

/** Every name above. */
export const WORKER_EXPORTS: readonly string[] = [...SERVER_ONLY_EXPORTS, ...WORKER_VALUE_EXPORTS];
