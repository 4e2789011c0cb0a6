// A form's schema run in the browser before sending: field errors without a round trip.
import type { FieldErrors } from "./protocol";
import type { FormSchema } from "./schema-action";
import { issuesToErrors, ownFields } from "./schema-issues";

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
  try {
    const result = await schema["~standard"].validate(ownFields(fields));
    if (!result.issues) return null;
    const { fieldErrors } = issuesToErrors(result.issues);
    return Object.keys(fieldErrors).length > 0 ? fieldErrors : null;
  } catch {
    return null;
  }
}
