// Actions whose input a Standard Schema checks: the schema's issues become field errors (422,
// the page again without JavaScript, JSON with it), and the action runs on the parsed value.
import type { FieldErrors } from "./protocol";
import type { ActionArgs } from "./route-module";
import type { Redirect } from "./redirect";
import type { NotFound } from "./not-found";
import { invalid, type Invalid } from "./invalid";
import { schemaVerdict } from "./schema-issues";
import { secretNames } from "./secret-fields";
import type { StandardSchemaV1 } from "./standard-schema";

/** A schema of a form's fields: an object of (string) fields in, anything out. */
export type FormSchema = StandardSchemaV1<Record<string, unknown>, unknown>;

type InputOf<S extends FormSchema> = StandardSchemaV1.InferInput<S>;
type OutputOf<S extends FormSchema> = StandardSchemaV1.InferOutput<S>;
type NameOf<S extends FormSchema> = keyof InputOf<S> & string;

/** What a schema action receives: the action's arguments and `input`, the schema's parsed value. */
export type SchemaActionArgs<S extends FormSchema, P extends string = string> = ActionArgs<P> & {
  input: OutputOf<S>;
};

/** An action made by `action(schema, run)`: callable by the runtime, its schema and result typed. */
export interface SchemaAction<S extends FormSchema, R> {
  (args: ActionArgs): Promise<R | Redirect | Invalid<NameOf<S>>>;
  readonly schema: S;
}

/** The field names of a page's actions (`typeof actions`), or of one action: any string if unknown. */
export type FieldNames<A> = [A] extends [SchemaAction<infer S, unknown>]
  ? NameOf<S>
  : [A] extends [Record<string, unknown>]
    ? { [K in keyof A]: A[K] extends SchemaAction<infer S, unknown> ? NameOf<S> : string }[keyof A]
    : string;

/** What an action returns on success (its `result` for JavaScript callers), without refusals. */
export type ActionResult<A> = A extends (...args: never[]) => infer R
  ? Exclude<Awaited<R>, Invalid<string> | Redirect | NotFound>
  : unknown;

export interface SchemaActionOptions<S extends FormSchema> {
  /** Fields never sent back to a refused form, nor quoted in a message (password inputs never are). */
  secret?: readonly NameOf<S>[];
}

/**
 * An action whose fields `schema` checks first (any Standard Schema v1, sync or async): invalid
 * input answers 422 with the issues next to their fields, else `run` gets the parsed `input`.
 * A schema that throws is an error like any other: the fallback, with a digest.
 */
export function action<S extends FormSchema, R, P extends string = string>(
  schema: S,
  run: (args: SchemaActionArgs<S, P>) => R | Redirect | Invalid | Promise<R | Redirect | Invalid>,
  options: SchemaActionOptions<S> = {},
): SchemaAction<S, R> {
  // The browser's copy: the schema alone, for a form's checks. An action runs on the worker, so
  // nothing here holds `run`, even one the browser's build could not cut from a call (verge/vite).
  if (!import.meta.env.SSR) return { schema } as unknown as SchemaAction<S, R>;
  async function checked(args: ActionArgs) {
    const result = await schemaVerdict(schema, args.fields, secretNames(args.fields, options.secret));
    if (result.errors) {
      const { fieldErrors, message } = result.errors;
      return invalid<NameOf<S>>(fieldErrors as FieldErrors<NameOf<S>>, {
        ...(message === undefined ? {} : { message }),
        ...(options.secret ? { secret: options.secret } : {}),
      });
    }
    const outcome = await run({ ...(args as ActionArgs<P>), input: result.value as OutputOf<S> });
    if (options.secret && typeof outcome === "object" && outcome !== null && "fieldErrors" in outcome) {
      return { ...(outcome as Invalid), secret: [...((outcome as Invalid).secret ?? []), ...options.secret] };
    }
    return outcome;
  }
  return Object.assign(checked as SchemaAction<S, R>, { schema });
}
