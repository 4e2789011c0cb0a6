// The choice fields of a <Form>, apart from Field so a page pays for them only when it imports
// them: a select, and a radio group. `<sign.Field as={Select} …>` types their names by the schema.
import type { ChoiceProps } from "./form-fields";
import { useField } from "./form-fields";

/** Each option as a value and a label. */
const choices = ({ options }: ChoiceProps) =>
  options.map((o) => (typeof o === "string" ? { value: o, label: o } : o));

/** A labelled select of `options`, its error tied to it; after a refused submission, the option sent. */
export function Select(props: ChoiceProps) {
  const { name, label, options: _, defaultValue, ...rest } = props;
  const [sent, refilled, control, errorText] = useField(name);
  return (
    <div className="field">
      <label htmlFor={control.id}>{label}</label>
      <select {...rest} {...control} defaultValue={refilled ? sent : defaultValue}>
        {choices(props).map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {errorText}
    </div>
  );
}

/**
 * A radio group: one question, so its label is the group's legend and its error the group's.
 * Focusable while invalid: the form moves focus to the first invalid field after a refusal.
 */
export function RadioGroup(props: ChoiceProps) {
  const [sent, refilled, control, errorText] = useField(props.name);
  const invalid = control["aria-invalid"];
  const chosen = refilled ? sent : props.defaultValue;
  return (
    <fieldset
      className="field"
      role="radiogroup"
      aria-invalid={invalid}
      aria-describedby={control["aria-describedby"]}
      tabIndex={invalid ? -1 : undefined}
    >
      <legend>{props.label}</legend>
      {choices(props).map((o, i) => (
        <label key={o.value}>
          <input
            type="radio"
            name={props.name}
            value={o.value}
            defaultChecked={o.value === chosen}
            autoFocus={(i === 0 && control.autoFocus) || undefined}
          />{" "}
          {o.label}
        </label>
      ))}
      {errorText}
    </fieldset>
  );
}
