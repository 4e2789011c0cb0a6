// A schema's view of a submission: the fields it checks, and its issues as field errors.
import { ACTION_FIELD, IDEMPOTENCY_FIELD, SECRET_FIELD, type FieldErrors } from "./protocol";
import type { Fields } from "./route-module";
import type { StandardSchemaV1 } from "./standard-schema";

/** The submitted fields the form's author wrote: not the action's name, key or secret markers. */
export function ownFields(fields: Fields): Fields {
  const own: Fields = Object.create(null);
  for (const [name, value] of Object.entries(fields)) {
    if (name !== ACTION_FIELD && name !== IDEMPOTENCY_FIELD && name !== SECRET_FIELD) own[name] = value;
  }
  return own;
}

/** A schema's issues as field errors (the first per field, by the path's first key) and a message. */
export function issuesToErrors(issues: readonly StandardSchemaV1.Issue[]): {
  fieldErrors: FieldErrors;
  message?: string;
} {
  const fieldErrors: FieldErrors = {};
  let message: string | undefined;
  for (const issue of issues) {
    const path = (issue.path ?? []).map((segment) =>
      typeof segment === "object" ? String(segment.key) : String(segment),
    );
    if (path.length === 0) message ??= issue.message;
    else fieldErrors[path.join(".")] ??= issue.message;
  }
  return message === undefined ? { fieldErrors } : { fieldErrors, message };
}
