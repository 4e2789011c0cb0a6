// A schema's view of a submission: the fields it checks, and its issues as field errors, with no
// secret value in any message.
import { ACTION_FIELD, IDEMPOTENCY_FIELD, SECRET_FIELD, type FieldErrors } from "./protocol";
import type { Fields } from "./route-module";
import type { FormSchema } from "./schema-action";
import { errorsWithoutSecrets, SECRET_MESSAGE, withDecoys, withoutSecrets } from "./secret-fields";
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

/** What `schema` finds wrong with `fields` (null: nothing, with its parsed value). */
async function check(schema: FormSchema, fields: Fields) {
  const result = await schema["~standard"].validate(ownFields(fields));
  return result.issues ? { errors: issuesToErrors(result.issues) } : { errors: null, value: result.value };
}

/**
 * The schema's verdict on `fields`, its messages safe to show. A secret field's message, and the
 * form's, are kept only when they are the schema's own text: the same words when each secret is
 * replaced by a decoy. A message that changes with the value may quote it, however the schema
 * transformed it first (trimmed, lowercased), so it becomes SECRET_MESSAGE; a library's message is
 * replaced outright, the author's own kept. Only a refused submission with a secret in it pays
 * for the second run.
 */
export async function schemaVerdict(
  schema: FormSchema,
  fields: Fields,
  secret: Set<string>,
): Promise<{ errors: SchemaErrors | null; value?: unknown }> {
  const verdict = await check(schema, fields);
  if (!verdict.errors) return verdict;
  const { fieldErrors, message } = verdict.errors;
  const onSecrets = Object.keys(fieldErrors).filter((name) => secret.has(name.split(".")[0]!));
  const hasSecret = [...secret].some((name) => fields[name]);
  let again: SchemaErrors | null = null;
  if (hasSecret && (onSecrets.length > 0 || message !== undefined)) {
    again = (await check(schema, withDecoys(fields, secret)).catch(() => null))?.errors ?? {
      fieldErrors: {},
    };
  }
  const safe: FieldErrors = { ...fieldErrors };
  for (const name of onSecrets)
    if (again && again.fieldErrors[name] !== fieldErrors[name]) safe[name] = SECRET_MESSAGE;
  const errors: SchemaErrors = { fieldErrors: errorsWithoutSecrets(safe, fields, secret) };
  if (message !== undefined) {
    errors.message =
      again && again.message !== message ? SECRET_MESSAGE : withoutSecrets(message, fields, secret);
  }
  return { errors };
}
