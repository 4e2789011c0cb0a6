// Checks a request must pass before its body is read or any product code runs (each kind lists
// its own in its handler), and the refusals of a body over its limit.
import type { AppContext } from "./context";
import { HttpError } from "./errors";
import { declaresOver } from "./refused-body";
import { isSameSite } from "./same-site";
import {
  BUILD_HEADER,
  FORM_MULTIPART,
  FORM_URLENCODED,
  JSON_MEDIA_TYPE,
  MAX_ACTION_BODY_BYTES,
  STATUS,
} from "../shared/protocol";

export type BodyType = typeof FORM_URLENCODED | typeof FORM_MULTIPART | typeof JSON_MEDIA_TYPE;

const BODY_TYPES: readonly string[] = [FORM_URLENCODED, FORM_MULTIPART, JSON_MEDIA_TYPE];

/** 403 for cross-site posts (CSRF), by the site's one rule (same-site.ts). */
export function assertSameSite(request: Request, env: Env): void {
  if (!isSameSite(request, env)) {
    throw new HttpError(STATUS.forbidden, "Cross-site form submissions are not allowed.");
  }
}

/** The refusal of a form over MAX_ACTION_BODY_BYTES. */
export const formTooLarge = () =>
  new HttpError(STATUS.payloadTooLarge, "The form is too large (the limit is 1 MiB).");

/** The refusal of any other body over MAX_ACTION_BODY_BYTES (an endpoint's, a refused method's). */
export const bodyTooLarge = () =>
  new HttpError(STATUS.payloadTooLarge, "The body is too large (the limit is 1 MiB).");

/** 409 when the client runs another build than the server: it does a full page load instead. */
export function assertSameBuild(c: AppContext): void {
  const build = c.req.header(BUILD_HEADER);
  const current = c.get("app").manifest.build;
  if (build !== undefined && build !== current) {
    throw new HttpError(STATUS.conflict, "The page was loaded from another build; reload it.", {
      body: { build: current, reload: true },
    });
  }
}

/** 413 from the declared length; bodies without one are counted as they are read (action-body.ts). */
export function assertDeclaredSize(request: Request): void {
  if (declaresOver(request, MAX_ACTION_BODY_BYTES)) throw formTooLarge();
}

/** 415 unless the body is urlencoded, multipart or JSON; returns which. */
export function bodyType(request: Request): BodyType {
  const mediaType = (request.headers.get("Content-Type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (!BODY_TYPES.includes(mediaType)) {
    throw new HttpError(STATUS.unsupportedMediaType, `Send the form as one of: ${BODY_TYPES.join(", ")}.`);
  }
  return mediaType as BodyType;
}
