// A refused submission: what an action returns with `invalid(fieldErrors, options)`, and the typed
// values the refused form is shown again with (never a secret's).
import { SECRET_FIELD, type FieldErrors, STATUS } from "./protocol";
import { secretNames } from "./secret-fields";
import type { Fields } from "./route-module";

const INVALID = Symbol.for("verge.invalid");

export interface InvalidOptions {
  /** A 4xx other than 422: 429 for a visitor over a rate limit, 409 for a conflict. */
  status?: number;
  /** Headers of the answer, e.g. `Retry-After`. */
  headers?: Record<string, string>;
  /** About the whole submission rather than one field: shown with the form, in its alert. */
  message?: string;
  /** Fields whose typed values are never sent back, in HTML or JSON (see `echoedValues`). */
  secret?: readonly string[];
}

export interface Invalid<F extends string = string> {
  [INVALID]: true;
  fieldErrors: FieldErrors<F>;
  status: number;
  headers: Record<string, string>;
  message?: string;
  /** Fields whose typed values are never sent back (besides password inputs; secret-fields.ts). */
  secret?: readonly string[];
}

/**
 * Return from an action when the submission is refused: 422 (or `options.status`), errors shown
 * next to their fields and `options.message` with the form; the typed values are kept, with
 * JavaScript and without.
 */
export function invalid<F extends string = string>(
  fieldErrors: { [K in F]?: string },
  options: InvalidOptions = {},
): Invalid<F> {
  const { status = STATUS.unprocessable, headers = {}, message, secret } = options;
  // Anything else would tell the browser the submission was fine, or blame the server.
  if (!Number.isInteger(status) || status < 400 || status > 499) {
    throw new RangeError(`invalid() takes a 4xx status, not ${status}`);
  }
  return {
    [INVALID]: true,
    fieldErrors: fieldErrors as FieldErrors<F>,
    status,
    headers,
    ...(message === undefined ? {} : { message }),
    ...(secret === undefined ? {} : { secret }),
  };
}

export function isInvalid(value: unknown): value is Invalid {
  return typeof value === "object" && value !== null && INVALID in value;
}

/** The typed values a refused form is re-rendered with: not framework fields, not secrets. */
export function echoedValues(fields: Fields, refusal: Pick<Invalid, "secret">, omit: readonly string[]) {
  const secret = secretNames(fields, refusal.secret);
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(fields)) {
    if (omit.includes(name) || name === SECRET_FIELD || secret.has(name)) continue;
    values[name] = value;
  }
  return values;
}
