// /secrets: a form with a password field named "pin" (secret by its type) and a code the action
// calls secret, both checked by valibot's default messages, which quote the value they refuse; a
// password phrase the schema trims and lowercases first (so the quote is not the typed value), and
// a tag the action calls secret whose message is the schema's own words.
import * as v from "valibot";
import { action, formFor, type Actions, type PageProps } from "verge";

export const title = "Secrets";

const UnlockSchema = v.object({
  name: v.pipe(v.string(), v.nonEmpty("Name is required.")),
  pin: v.pipe(v.string(), v.regex(/^\d{6}$/)),
  code: v.pipe(v.string(), v.regex(/^[A-Z]{4}$/)),
  phrase: v.pipe(v.string(), v.trim(), v.toLowerCase(), v.regex(/^[a-z]{3}$/)),
  tag: v.pipe(v.string(), v.regex(/^[a-z]{4}$/, "A tag is four small letters.")),
});

export const actions = {
  unlock: action(UnlockSchema, ({ input }) => ({ unlocked: input.name }), { secret: ["code", "tag"] }),
} satisfies Actions;

const unlock = formFor<typeof actions>()("unlock", { schema: UnlockSchema });

export default function Secrets({ actionData }: PageProps<null, "/secrets", typeof actions>) {
  return (
    <>
      <h1>Secrets</h1>
      <unlock.Form actionData={actionData}>
        <unlock.Field name="name" label="Name" />
        <unlock.Field name="pin" label="PIN" type="password" />
        <unlock.Field name="code" label="Code" />
        <unlock.Field name="phrase" label="Phrase" type="password" />
        <unlock.Field name="tag" label="Tag" />
        <unlock.SubmitButton pendingText="Unlocking…">Unlock</unlock.SubmitButton>
      </unlock.Form>
    </>
  );
}
