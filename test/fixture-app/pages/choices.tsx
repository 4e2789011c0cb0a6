// /choices: a form with every kind of field besides text (a select, a radio group, a checkbox, a
// hidden input), so tests can see each refilled after a refused submission, with and without
// JavaScript.
import * as v from "valibot";
import { action, formFor, RadioGroup, Select, type Actions, type PageProps } from "verge";

export const title = "Choices";

const OrderSchema = v.object({
  name: v.pipe(v.string(), v.nonEmpty("Name is required.")),
  tone: v.picklist(["warm", "dry", "loud"]),
  // A radio group left unchosen sends nothing: "" so the message is the picklist's own.
  size: v.pipe(v.optional(v.string(), ""), v.picklist(["s", "m", "l"], "Pick a size.")),
  gift: v.optional(v.literal("yes")),
  news: v.optional(v.literal("on")),
  source: v.string(),
});

export const actions = {
  order: action(OrderSchema, ({ input }) => ({
    ordered: [
      input.name,
      input.tone,
      input.size,
      input.gift ?? "no gift",
      input.news ?? "no news",
      input.source,
    ],
  })),
} satisfies Actions;

const order = formFor<typeof actions>()("order");

function Ordered() {
  const { result } = order.useFormState();
  return result ? <p data-testid="ordered">{result.ordered.join(", ")}</p> : null;
}

export default function Choices({ actionData }: PageProps<null, "/choices", typeof actions>) {
  return (
    <>
      <h1>Choices</h1>
      <order.Form actionData={actionData} successMessage="Ordered.">
        <order.Field name="name" label="Name" />
        <order.Field
          as={Select}
          name="tone"
          label="Tone"
          options={[{ value: "warm", label: "Warm" }, { value: "dry", label: "Dry" }, "loud"]}
          defaultValue="dry"
        />
        <order.Field as={RadioGroup} name="size" label="Size" options={["s", "m", "l"]} />
        <order.Field name="gift" label="Wrap it as a gift" type="checkbox" value="yes" />
        <order.Field name="news" label="Send me news" type="checkbox" defaultChecked />
        <order.Field name="source" type="hidden" value="choices-page" />
        <order.SubmitButton pendingText="Ordering…" aria-label="Place the order" className="order-button">
          Order
        </order.SubmitButton>
        <Ordered />
      </order.Form>
    </>
  );
}
