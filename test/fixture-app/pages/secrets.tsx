// /secrets: a form with a password field named "pin" (secret by its type) and a code the action
// calls secret, both checked by valibot's default messages, which quote the value they refuse.
import * as v from "valibot";
import { action, formFor, type Actions, type PageProps } from "verge";

export const title = "Secrets";

const UnlockSchema = v.object({
  name: v.pipe(v.string(), v.nonEmpty("Name is required.")),
  pin: v.pipe(v.string(), v.regex(/^\d{6}$/)),
  code: v.pipe(v.string(), v.regex(/^[A-Z]{4}$/)),
});

export const actions = {
  unlock: action(UnlockSchema, ({ input }) => ({ unlocked: input.name }), { secret: ["code"] }),
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
        <unlock.SubmitButton pendingText="Unlocking…">Unlock</unlock.SubmitButton>
      </unlock.Form>
    </>
  );
}
