// A schema's view of a submission: the fields it checks, and its issues as field errors, with no
// secret value in any message.
import { ACTION_FIELD, IDEMPOTENCY_FIELD, SECRET_FIELD, type FieldErrors } from "./protocol";
import type { Fields } from "./route-module";
import type { FormSchema } from "./schema-action";
import { SECRET_MESSAGE, withDecoys } from "./secret-fields";
import type { StandardSchemaV1 } from "./standard-schema";

/** The submitted fields the form's author wrote: not the action's name, key or secret markers. */
export function ownFields(fields: Fields): Fields {
  const own: Fields = Object.create(null);
  for (const [name, value] of Object.entries(fields)) {
    if (name !== ACTION_FIELD && name !== IDEMPOTENCY_FIELD && name !== SECRET_FIELD) own[name] = value;
  }
  return own;
}

interface SchemaErrors {
  fieldErrors: FieldErrors;
  message?: string;
}

/** A schema's issues as field errors (the first per field, by the path's first key) and a message. */
export function issuesToErrors(issues: readonly StandardSchemaV1.Issue[]): SchemaErrors {
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

/**
 * The schema's verdict on `fields`, its messages safe to show: with a secret typed in, each
 * message is kept only when it is the schema's own text, the same words when each secret is
 * replaced by a decoy. A message that changes with a secret may quote it, however the schema
 * transformed it first (trimmed, lowercased): it becomes SECRET_MESSAGE, so a library's message
 * is replaced outright and the author's own kept. Only a refused submission with a secret in it
 * pays for the second run.
 */
export async function schemaVerdict(
  schema: FormSchema,
  fields: Fields,
  secret: Set<string>,
): Promise<{ errors: SchemaErrors | null; value?: unknown }> {
  const check = async (fields: Fields) => {
    const result = await schema["~standard"].validate(ownFields(fields));
    return result.issues ? { errors: issuesToErrors(result.issues) } : { errors: null, value: result.value };
  };
  const verdict = await check(fields);
  const { errors } = verdict;
  if (!errors || ![...secret].some((name) => fields[name])) return verdict;
  const again = (await check(withDecoys(fields, secret)).catch(() => null))?.errors;
  const { fieldErrors } = errors;
  for (const name in fieldErrors) {
    if (again?.fieldErrors[name] !== fieldErrors[name]) fieldErrors[name] = SECRET_MESSAGE;
  }
  if (errors.message !== undefined && again?.message !== errors.message) errors.message = SECRET_MESSAGE;
  return verdict;
}
