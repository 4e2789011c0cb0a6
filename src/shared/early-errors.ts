// A form's schema run in the browser before sending: field errors without a round trip.
import type { FieldErrors } from "./protocol";
import type { FormSchema } from "./schema-action";
import { schemaVerdict } from "./schema-issues";
import { secretNames } from "./secret-fields";

/**
 * The field errors `schema` finds in `form`, or null to send it: the server judges every
 * submission anyway, so a schema that throws here (or only complains about the whole form)
 * lets the submission go.
 */
export async function earlyErrors(schema: FormSchema, form: HTMLFormElement): Promise<FieldErrors | null> {
  const fields: Record<string, string> = {};
  for (const [name, value] of new FormData(form)) {
    if (typeof value === "string" && !Object.hasOwn(fields, name)) fields[name] = value;
  }
  // Password inputs are secret here too: a message on screen never quotes one.
  const secret = secretNames(
    fields,
    [...form.querySelectorAll<HTMLInputElement>('input[type="password"]')].map((input) => input.name),
  );
  try {
    const { errors } = await schemaVerdict(schema, fields, secret);
    if (!errors) return null;
    return Object.keys(errors.fieldErrors).length > 0 ? errors.fieldErrors : null;
  } catch {
    return null;
  }
}
