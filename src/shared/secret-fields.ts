// Which submitted fields are secret, and refusal messages with no secret value in them.
import { SECRET_FIELD, type FieldErrors } from "./protocol";
import type { Fields } from "./route-module";

/** Said instead of a message that may quote a secret value (valibot's defaults quote the input). */
export const SECRET_MESSAGE = "This value is not valid.";

/** Names that are secrets whatever the form says (a belt: the type or the action is the rule). */
const SECRET_NAME = /passw(or)?d/i;

/**
 * The secret fields of a submission: those a password <Field> marked (by its type, whatever its
 * name), those the action names, and any named like a password. The marker comes from the
 * visitor's own form; dropping it only sends their own value back to them.
 */
export function secretNames(fields: Fields, named: readonly string[] = []): Set<string> {
  const marked = fields[SECRET_FIELD]?.split("\n") ?? [];
  const names = new Set([...marked, ...named]);
  for (const name of Object.keys(fields)) if (SECRET_NAME.test(name)) names.add(name);
  return names;
}

/** Whether `message` quotes `value`, as typed or escaped the way JSON (and most libraries) would. */
function quotes(message: string, value: string): boolean {
  return value !== "" && (message.includes(value) || message.includes(JSON.stringify(value).slice(1, -1)));
}

/** A message that quotes none of the secret values, or SECRET_MESSAGE. */
export function withoutSecrets(message: string, fields: Fields, secret: Set<string>): string {
  for (const name of secret) {
    const value = fields[name];
    if (value !== undefined && quotes(message, value)) return SECRET_MESSAGE;
  }
  return message;
}

/** Field errors whose messages quote no secret value. */
export function errorsWithoutSecrets(errors: FieldErrors, fields: Fields, secret: Set<string>): FieldErrors {
  const clean: FieldErrors = {};
  for (const [name, message] of Object.entries(errors)) {
    if (message !== undefined) clean[name] = withoutSecrets(message, fields, secret);
  }
  return clean;
}

/**
 * `fields` with each secret value replaced by a decoy: each digit another digit, each other visible
 * character an "x" (a "y" for an x), spaces kept. It most likely fails the same rule, yet shares
 * no character with the value at any place, in any case, trimmed or not.
 */
export function withDecoys(fields: Fields, secret: Set<string>): Fields {
  const decoys: Fields = { ...fields };
  const decoy = (c: string) => (/\d/.test(c) ? (c === "0" ? "1" : "0") : /x/i.test(c) ? "y" : "x");
  for (const name of secret) decoys[name] &&= decoys[name].replace(/\S/g, decoy);
  return decoys;
}
