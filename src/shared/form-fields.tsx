// The pieces inside a <Form>: labelled fields that show their errors accessibly, and the submit button.
import type { InputHTMLAttributes, ReactNode, TextareaHTMLAttributes } from "react";
import { useFormState } from "./form";
import { IDEMPOTENCY_FIELD, SECRET_FIELD } from "./protocol";

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, "name" | "id" | "defaultValue" | "value">;
type TextareaProps = Omit<
  TextareaHTMLAttributes<HTMLTextAreaElement>,
  "name" | "id" | "defaultValue" | "value"
>;

export type FieldProps<F extends string = string> = { name: F; label: ReactNode } & (
  ({ multiline?: false } & InputProps) | ({ multiline: true } & TextareaProps)
);

/**
 * A label, an input (or textarea) and its error. An invalid field is `aria-invalid` and
 * described by its error text, so screen readers read the error with the field.
 */
export function Field(props: FieldProps) {
  const state = useFormState();
  const { name, label } = props;
  const id = `${state.id}-${name}`;
  const error = state.fieldErrors[name];
  const errorId = `${id}-error`;
  const secret = !props.multiline && props.type === "password";
  const shared = {
    id,
    name,
    // A password is never put back into the page, whatever the values say.
    defaultValue: secret ? undefined : state.values[name],
    "aria-invalid": error ? true : undefined,
    "aria-describedby": error ? errorId : undefined,
    autoFocus: state.autoFocus === name || undefined,
  };
  let control: ReactNode;
  if (props.multiline) {
    const { name: _n, label: _l, multiline: _m, ...rest } = props;
    control = <textarea {...rest} {...shared} />;
  } else {
    const { name: _n, label: _l, multiline: _m, ...rest } = props;
    control = <input {...rest} {...shared} />;
  }
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {control}
      {/* Tells the server this field is secret by its type, with or without JavaScript. */}
      {secret ? <input type="hidden" name={SECRET_FIELD} value={name} /> : null}
      {error ? (
        <p id={errorId} className="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** Disabled while the form is on its way, and says so. */
export function SubmitButton({ children, pendingText }: { children: ReactNode; pendingText: ReactNode }) {
  const { pending } = useFormState();
  return (
    <button type="submit" disabled={pending}>
      {pending ? pendingText : children}
    </button>
  );
}

/**
 * The form's idempotency key where it cannot be rendered with the form: in a hole of a shared
 * shell, from the per-visitor loader. Tied to its form by id, so it is sent with it wherever it
 * lands (without JavaScript, a hole's content arrives at the end of the document).
 */
export function IdempotencyKey({ value }: { value: string }) {
  const { id } = useFormState();
  return <input type="hidden" form={id} name={IDEMPOTENCY_FIELD} value={value} />;
}
