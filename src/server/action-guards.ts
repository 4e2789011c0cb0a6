// Checks an action request must pass before its body is read or any action code runs.
import { HttpError } from "./errors";
import { declaresOver } from "./refused-body";
import { isSameSite } from "./same-site";
import {
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

/** The refusal of a body over MAX_ACTION_BODY_BYTES. */
export const formTooLarge = () =>
  new HttpError(STATUS.payloadTooLarge, "The form is too large (the limit is 1 MiB).");

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
