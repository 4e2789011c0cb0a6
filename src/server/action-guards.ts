// Checks an action request must pass before its body is read or any action code runs.
import { HttpError } from "./errors";
import { declaresOver } from "./refused-body";
import {
  FORM_MULTIPART,
  FORM_URLENCODED,
  JSON_MEDIA_TYPE,
  MAX_ACTION_BODY_BYTES,
  STATUS,
} from "../shared/protocol";

export type BodyType = typeof FORM_URLENCODED | typeof FORM_MULTIPART | typeof JSON_MEDIA_TYPE;

const BODY_TYPES: readonly string[] = [FORM_URLENCODED, FORM_MULTIPART, JSON_MEDIA_TYPE];

function allowedOrigins(env: Env): Set<string> {
  return new Set(
    (env.ALLOWED_ORIGINS ?? "")
      .split(",")
      .map((origin) => origin.trim())
      .filter((origin) => origin !== ""),
  );
}

/**
 * 403 for cross-site posts (CSRF). The browser's Origin is compared with the request's own
 * origin and the ALLOWED_ORIGINS list; "null" (sandboxed frames, some redirects) never passes.
 * An allowed origin passes even when Sec-Fetch-Site says cross-site: allowing it is what the
 * list is for. Requests with neither header come from non-browser clients, which CSRF cannot forge.
 */
export function assertSameSite(request: Request, env: Env): void {
  const origin = request.headers.get("Origin");
  const fetchSite = request.headers.get("Sec-Fetch-Site");
  if (origin !== null) {
    if (origin === new URL(request.url).origin && fetchSite !== "cross-site") return;
    if (origin !== "null" && allowedOrigins(env).has(origin)) return;
    throw new HttpError(STATUS.forbidden, "Cross-site form submissions are not allowed.");
  }
  if (fetchSite === "cross-site") {
    throw new HttpError(STATUS.forbidden, "Cross-site form submissions are not allowed.");
  }
}

/** The refusal of a body over MAX_ACTION_BODY_BYTES. */
export const formTooLarge = () =>
  new HttpError(STATUS.payloadTooLarge, "The form is too large (the limit is 1 MiB).");

/** 413 from the declared length; bodies without one are counted as they are read (form-data.ts). */
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
