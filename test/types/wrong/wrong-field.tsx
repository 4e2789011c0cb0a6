// Deliberately wrong (test/node/type-errors.test.ts): a field the action's schema does not have.
import * as v from "valibot";
import { action, formFor, type Actions } from "verge";

export const title = "Rename";

const Rename = v.object({ name: v.string() });

export const actions = {
  rename: action(Rename, ({ input }) => ({ renamed: input.name })),
} satisfies Actions;

const rename = formFor<typeof actions>()("rename");

export default function RenamePage() {
  return (
    <rename.Form>
      <rename.Field name="nmae" label="Name" />
    </rename.Form>
  );
}
