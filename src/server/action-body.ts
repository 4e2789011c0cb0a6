// Reads an action's body, counting bytes as they arrive, into plain string fields.
import { HttpError } from "./errors";
import {
  FORM_MULTIPART,
  FORM_URLENCODED,
  MAX_ACTION_BODY_BYTES,
  SECRET_FIELD,
  STATUS,
} from "../shared/protocol";
import { formTooLarge, type BodyType } from "./guards";
import type { Fields } from "../shared/route-module";

/**
 * The body's bytes, up to the limit. Past it the stream is cancelled and 413 thrown: a body
 * without Content-Length (or one that lies) is never read or buffered beyond 1 MiB.
 */
export async function readLimited(
  request: Request,
  limit = MAX_ACTION_BODY_BYTES,
): Promise<Uint8Array<ArrayBuffer>> {
  if (request.body === null) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => {});
      throw formTooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

const malformed = (what: string) => new HttpError(STATUS.badRequest, `The ${what} body is malformed.`);

function firstWins(entries: Iterable<[string, unknown]>): Fields {
  const fields: Fields = Object.create(null);
  for (const [name, value] of entries) {
    // Files have no place in these forms: a file part is treated as a missing field.
    if (typeof value !== "string") continue;
    // Each password field names itself: every marker counts, not only the first.
    if (name === SECRET_FIELD && Object.hasOwn(fields, name)) fields[name] += `\n${value}`;
    else if (!Object.hasOwn(fields, name)) fields[name] = value;
  }
  return fields;
}

function jsonFields(text: string): Fields {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw malformed("JSON");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new HttpError(STATUS.badRequest, "The JSON body must be an object of fields.");
  }
  const fields: Fields = Object.create(null);
  for (const [name, value] of Object.entries(parsed)) {
    if (value === null) continue;
    if (typeof value === "string") fields[name] = value;
    else if (typeof value === "number" || typeof value === "boolean") fields[name] = String(value);
    else throw new HttpError(STATUS.badRequest, `The JSON field "${name.slice(0, 60)}" must be a string.`);
  }
  return fields;
}

/** The body as fields: urlencoded and multipart forms and JSON objects look the same to an action. */
export async function readFields(request: Request, type: BodyType): Promise<Fields> {
  const bytes = await readLimited(request);
  if (type === FORM_MULTIPART) {
    try {
      const form = await new Response(bytes, {
        headers: { "Content-Type": request.headers.get("Content-Type")! },
      }).formData();
      return firstWins(form.entries());
    } catch {
      throw malformed("multipart");
    }
  }
  const text = new TextDecoder().decode(bytes);
  if (type === FORM_URLENCODED) return firstWins(new URLSearchParams(text).entries());
  return jsonFields(text);
}
