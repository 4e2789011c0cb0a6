// /account: a schema-checked action whose schema is async (a nickname looked up) and which takes a
// password, so tests can see field errors, kept values and a password never sent back.
import * as v from "valibot";
import { action, formFor, type Actions, type PageProps } from "verge";

export const title = "Account";

/** A nickname someone already has: the async check refuses it. */
export const TAKEN_NICKNAME = "taken";

const AccountSchema = v.objectAsync({
  nickname: v.pipeAsync(
    v.string(),
    v.nonEmpty("Nickname is required."),
    // Async, as a lookup in a database would be.
    v.checkAsync(
      async (nickname) => (await Promise.resolve(nickname)) !== TAKEN_NICKNAME,
      "That nickname is taken.",
    ),
  ),
  password: v.pipe(v.string(), v.minLength(8, "Password must be at least 8 characters.")),
});

export const actions = {
  register: action(AccountSchema, ({ input }) => ({ registered: input.nickname })),
} satisfies Actions;

const register = formFor<typeof actions>()("register", { schema: AccountSchema });

function Registered() {
  const { result } = register.useFormState();
  return result ? <p data-testid="registered">Registered {result.registered}.</p> : null;
}

export default function Account({ actionData }: PageProps<null, "/account", typeof actions>) {
  return (
    <>
      <h1>Account</h1>
      <register.Form actionData={actionData} successMessage="Registered.">
        <register.Field name="nickname" label="Nickname" />
        <register.Field name="password" label="Password" type="password" />
        <register.SubmitButton pendingText="Registering…">Register</register.SubmitButton>
        <Registered />
      </register.Form>
    </>
  );
}
