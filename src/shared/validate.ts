// A small typed validator for action fields: text rules in, typed values or field errors out.
import type { FieldErrors } from "./protocol";
import type { Fields } from "./route-module";

export interface TextRule {
  /** What the visitor calls the field, for messages ("Name is required."). */
  label: string;
  min?: number;
  max: number;
  /** Keep line breaks and tabs (a textarea); other control characters are always refused. */
  multiline?: boolean;
}

export type Validated<S extends Record<string, TextRule>> =
  { ok: true; values: { [K in keyof S]: string } } | { ok: false; fieldErrors: FieldErrors };

// C0 and C1 controls, DEL, the bidi overrides and isolates that can disguise text, and
// lone surrogates (not text at all: the database would store them as U+FFFD).
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\ud800-\udfff]/u;
const CONTROL_EXCEPT_LINES =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\ud800-\udfff]/u;

/** Length as a person counts it: code points, so an emoji is one character (as SQLite's length()). */
export function characters(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/** Trims, normalises line breaks, and checks the length and characters; null when valid. */
export function checkText(raw: string | undefined, rule: TextRule): { value: string; error: string | null } {
  const value = (raw ?? "").replace(/\r\n?/g, "\n").trim();
  const length = characters(value);
  const min = rule.min ?? 1;
  if (length === 0 && min > 0) return { value, error: `${rule.label} is required.` };
  if (length < min) return { value, error: `${rule.label} must be at least ${min} characters.` };
  if (length > rule.max) return { value, error: `${rule.label} must be at most ${rule.max} characters.` };
  if ((rule.multiline ? CONTROL_EXCEPT_LINES : CONTROL).test(value)) {
    return { value, error: `${rule.label} must not contain control characters.` };
  }
  return { value, error: null };
}

/** Checks every field of `rules` in `fields`: all values, or every error at once. */
export function validate<S extends Record<string, TextRule>>(fields: Fields, rules: S): Validated<S> {
  const values: Record<string, string> = {};
  const fieldErrors: FieldErrors = {};
  for (const [name, rule] of Object.entries(rules)) {
    const checked = checkText(Object.hasOwn(fields, name) ? fields[name] : undefined, rule);
    if (checked.error === null) values[name] = checked.value;
    else fieldErrors[name] = checked.error;
  }
  if (Object.keys(fieldErrors).length > 0) return { ok: false, fieldErrors };
  return { ok: true, values: values as { [K in keyof S]: string } };
}
