// A page's form typed by one of its actions: field names, errors and result from the action's schema.
import type { ReactNode } from "react";
import { Form, useFormState, type FormProps, type FormState } from "./form";
import { Field, IdempotencyKey, SubmitButton, type FieldProps } from "./form-fields";
import type { ActionResult, FieldNames, FormSchema } from "./schema-action";
import { madeForRefresh } from "./dev-seam";

export interface TypedForm<F extends string, R> {
  /** `<Form>` for this action; `schema` (if given to formFor) also runs in the browser. */
  Form: (props: Omit<FormProps<F>, "actionName" | "schema">) => ReactNode;
  /** `<Field>` whose `name` must be one of the schema's fields. */
  Field: (props: FieldProps<F>) => ReactNode;
  SubmitButton: typeof SubmitButton;
  /** The form's idempotency key from a hole (`<Await resolve={visitor}>` inside the form). */
  IdempotencyKey: typeof IdempotencyKey;
  /** The form's state: errors by the schema's fields, the action's result after a success. */
  useFormState: () => FormState<F, R>;
}

/**
 * `const sign = formFor<typeof actions>()("sign", { schema })`: the form components of the action
 * `sign`, typed by it (`<sign.Field name="nmae">` does not compile). The same components as
 * `Form` and `Field`, so it costs no bytes; only a `schema` given here reaches the browser.
 */
export function formFor<A>() {
  return function named<K extends keyof A & string>(
    actionName: K,
    options: { schema?: FormSchema } = {},
  ): TypedForm<FieldNames<A[K]>, ActionResult<A[K]>> {
    function NamedForm(props: Omit<FormProps<FieldNames<A[K]>>, "actionName" | "schema">) {
      return <Form {...props} actionName={actionName} schema={options.schema} />;
    }
    // A new component each time the page's module runs: after an edit, Fast Refresh must know it
    // is the same form, or React remounts it and what was typed is lost. Production drops this.
    if (process.env.NODE_ENV !== "production") madeForRefresh(NamedForm, `formFor(${actionName})`);
    return { Form: NamedForm, Field, SubmitButton, IdempotencyKey, useFormState } as TypedForm<
      FieldNames<A[K]>,
      ActionResult<A[K]>
    >;
  };
}
