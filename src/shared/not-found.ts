// notFound() from loaders, actions and middleware: the page exists, what it names does not (an
// entry past the last, an unknown id). The answer is the app's not-found view inside the layouts.

const NOT_FOUND = Symbol.for("verge.notFound");

export interface NotFound {
  [NOT_FOUND]: true;
}

/**
 * Return (or throw) from a loader, an action or a middleware when what the URL names does not
 * exist: the visitor gets the app's not-found view inside the page's layouts, with status 404
 * (docs/protocol.md, "Not found").
 */
export function notFound(): NotFound {
  return { [NOT_FOUND]: true };
}

export function isNotFound(value: unknown): value is NotFound {
  return typeof value === "object" && value !== null && NOT_FOUND in value;
}
