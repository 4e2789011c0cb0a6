// The pieces inside a <Form>: labelled fields that show their errors accessibly, and the submit button.
import type {
  ButtonHTMLAttributes,
  InputHTMLAttributes,
  ReactNode,
  SelectHTMLAttributes,
  TextareaHTMLAttributes,
} from "react";
import { useFormState } from "./form";
import { IDEMPOTENCY_FIELD, SECRET_FIELD } from "./protocol";

type Own = "name" | "id" | "defaultValue" | "value" | "type";
type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, Own>;
type TextareaProps = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, Own>;
type SelectProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, Own | "multiple">;

/** The input types a text-like field takes (a checkbox and a hidden input are kinds of their own). */
type TextType =
  | "text"
  | "email"
  | "password"
  | "number"
  | "search"
  | "tel"
  | "url"
  | "date"
  | "datetime-local"
  | "month"
  | "time"
  | "week"
  | "color"
  | "range";

/** A choice of a select or a radio group: its value, or its value and a label. */
export type FieldOption = string | { value: string; label: ReactNode };

/** What `Select` and `RadioGroup` take (`defaultValue`: the option chosen before anything was sent). */
export type ChoiceProps<F extends string = string> = {
  name: F;
  label: ReactNode;
  options: readonly FieldOption[];
  defaultValue?: string;
} & SelectProps;

export type FieldProps<F extends string = string> =
  | ({ name: F; label: ReactNode; as?: undefined } & (
      | ({ type?: TextType; multiline?: false } & InputProps)
      | ({ multiline: true } & TextareaProps)
      | ({ type: "checkbox"; value?: string; defaultChecked?: boolean } & Omit<InputProps, "checked">)
    ))
  | ({ as: (props: ChoiceProps) => ReactNode } & ChoiceProps<F>)
  | { name: F; type: "hidden"; value: string | number };

/** Every kind's props at once, for the one body that renders them (FieldProps keeps them apart). */
type AnyField = InputProps & {
  name: string;
  label?: ReactNode;
  type?: string;
  value?: string | number;
  defaultChecked?: boolean;
  multiline?: boolean;
  as?: (props: ChoiceProps) => ReactNode;
};

/**
 * What every kind of field shows of its form's state: what was sent, whether the form shows a
 * refused submission (in which a box or radio left unchecked is absent from the values), its
 * control's attributes (id, and the error tied to it) and its error text. A tuple: the names
 * would stay in every page's bytes.
 */
export function useField(name: string) {
  const state = useFormState();
  const id = `${state.id}-${name}`;
  const error = state.fieldErrors[name];
  const errorId = `${id}-error`;
  return [
    state.values[name],
    Object.keys(state.values).length > 0,
    {
      id,
      name,
      "aria-invalid": error ? true : undefined,
      "aria-describedby": error ? errorId : undefined,
      autoFocus: state.autoFocus === name || undefined,
    },
    error ? (
      <p id={errorId} className="field-error">
        {error}
      </p>
    ) : null,
  ] as const;
}

/**
 * A label and its control: an input, a textarea (`multiline`), a checkbox, a hidden input, or
 * with `as`, a `Select` or `RadioGroup` (loaded only by the pages that import them). An invalid
 * field is `aria-invalid` and described by its error text, so screen readers read the error with
 * the field. After a refused submission without JavaScript, each shows what was sent.
 */
export function Field(props: FieldProps) {
  const { name, label, type, value, defaultChecked, multiline, as: Kind, ...rest } = props as AnyField;
  const [sent, refilled, control, errorText] = useField(name);
  if (Kind) return <Kind {...(props as ChoiceProps)} />;
  if (type === "hidden") return <input type="hidden" name={name} value={sent ?? value} />;
  const secret = type === "password";
  const box = type === "checkbox";
  const labelled = <label htmlFor={control.id}>{label}</label>;
  // A password is never put back into the page, whatever the values say.
  const own = { ...rest, ...control, defaultValue: secret || box ? undefined : sent };
  return (
    <div className="field">
      {box ? null : labelled}
      {multiline ? (
        <textarea {...(own as TextareaProps)} />
      ) : (
        <input
          {...own}
          type={type}
          value={value}
          defaultChecked={box ? (refilled ? sent === (value ?? "on") : defaultChecked) : undefined}
        />
      )}
      {box ? labelled : null}
      {/* Tells the server this field is secret by its type, with or without JavaScript. */}
      {secret ? <input type="hidden" name={SECRET_FIELD} value={name} /> : null}
      {errorText}
    </div>
  );
}

/** Disabled while the form is on its way, and says so. */
export function SubmitButton({ children, pendingText = children, disabled, ...button }: SubmitButtonProps) {
  const { pending } = useFormState();
  return (
    <button {...button} type="submit" disabled={pending || disabled}>
      {pending ? pendingText : children}
    </button>
  );
}

/** A button's own attributes (`aria-label`, `name` and `value`, `className`…), and its two labels. */
export type SubmitButtonProps = Omit<ButtonHTMLAttributes<HTMLButtonElement>, "type" | "children"> & {
  children: ReactNode;
  /** Its label while the form is on its way: `children` if unset. */
  pendingText?: ReactNode;
};

/**
 * The form's idempotency key where it cannot be rendered with the form: in a hole of a shared
 * shell, from the per-visitor loader. Tied to its form by id, so it is sent with it wherever it
 * lands (without JavaScript, a hole's content arrives at the end of the document).
 */
export function IdempotencyKey({ value }: { value: string }) {
  const { id } = useFormState();
  return <input type="hidden" form={id} name={IDEMPOTENCY_FIELD} value={value} />;
}
