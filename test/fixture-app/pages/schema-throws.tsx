// /schema-throws: an action whose schema throws (a bug in it, not a refusal): the fallback and a digest.
import { action, formFor, type Actions, type StandardSchemaV1 } from "verge";

export const title = "Schema throws";

const Broken: StandardSchemaV1<{ anything: string }> = {
  "~standard": {
    version: 1,
    vendor: "verge-tests",
    validate() {
      throw new Error("Schema failed on purpose (/schema-throws)");
    },
  },
};

export const actions = {
  send: action(Broken, () => ({ sent: true })),
} satisfies Actions;

const send = formFor<typeof actions>()("send", { schema: Broken });

export default function SchemaThrows() {
  return (
    <>
      <h1>Schema throws</h1>
      <send.Form>
        <send.Field name="anything" label="Anything" />
        <send.SubmitButton pendingText="Sending…">Send</send.SubmitButton>
      </send.Form>
    </>
  );
}
