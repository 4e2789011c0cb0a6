// The product's rule for a text field, as a valibot schema: what the guestbook's fields accept.
import * as v from "valibot";

// C0 and C1 controls, DEL, the bidi overrides and isolates that can disguise text, and
// lone surrogates (not text at all: the database would store them as U+FFFD).
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\ud800-\udfff]/u;
const CONTROL_EXCEPT_LINES =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\ud800-\udfff]/u;

/** Length as a person counts it: code points, so an emoji is one character (as SQLite's length()). */
function characters(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

export interface TextRule {
  /** What the visitor calls the field, for messages ("Name is required."). */
  label: string;
  max: number;
  /** Keep line breaks and tabs (a textarea); other control characters are always refused. */
  multiline?: boolean;
}

/**
 * A required text field: trimmed, CRLF made LF, at most `max` characters, no control characters.
 * A missing field is an empty one.
 */
export function textField({ label, max, multiline = false }: TextRule) {
  return v.pipe(
    v.optional(v.string(`${label} must be text.`), ""),
    v.transform((raw) => raw.replace(/\r\n?/g, "\n").trim()),
    v.nonEmpty(`${label} is required.`),
    v.check((text) => characters(text) <= max, `${label} must be at most ${max} characters.`),
    v.check(
      (text) => !(multiline ? CONTROL_EXCEPT_LINES : CONTROL).test(text),
      `${label} must not contain control characters.`,
    ),
  );
}
