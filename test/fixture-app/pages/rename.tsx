// /rename: a form that takes its schema from the action itself (`rename.schema`), so the browser
// checks the fields early while the action's run function, its statement with it, stays on the worker.
import * as v from "valibot";
import { action, formFor, type Actions, type PageProps } from "verge";

export const title = "Rename";

const rename = action(
  v.object({ name: v.pipe(v.string(), v.nonEmpty("Name is required.")) }),
  ({ input }) => {
    // Only the worker may know this: the browser's chunks are checked for it.
    const statement = "UPDATE fixture_rename_worker_only SET name = ?";
    return { renamed: input.name, statement };
  },
);

export const actions = { rename } satisfies Actions;

const form = formFor<typeof actions>()("rename", { schema: rename.schema });

function Renamed() {
  const { result } = form.useFormState();
  return result ? <p data-testid="renamed">Renamed to {result.renamed}.</p> : null;
}

export default function Rename({ actionData }: PageProps<null, "/rename", typeof actions>) {
  return (
    <>
      <h1>Rename</h1>
      <form.Form actionData={actionData}>
        <form.Field name="name" label="Name" />
        <form.SubmitButton pendingText="Renaming…">Rename</form.SubmitButton>
        <Renamed />
      </form.Form>
    </>
  );
}
