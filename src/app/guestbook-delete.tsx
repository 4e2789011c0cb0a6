// The guestbook's Delete button on the visitor's own entries: a fetcher's form, so the entry goes
// without leaving the page (the list revalidated in place); without JavaScript, a plain post.
// Its own chunk: only a signed-in author's entries have one, and the first load carries none.
import { useFetcher, type ActionResult } from "verge";
import type { actions } from "./pages/guestbook";

export default function DeleteEntry({ id, page }: { id: number; page: string }) {
  const fetcher = useFetcher<ActionResult<typeof actions.delete>>();
  // A refusal (not the author: 403) says why; the entry stays.
  const refusal = fetcher.data && "fieldErrors" in fetcher.data ? fetcher.data : null;
  return (
    <fetcher.Form actionName="delete" action={page}>
      <input type="hidden" name="id" value={id} />
      <button type="submit" disabled={fetcher.state !== "idle"}>
        {fetcher.state === "idle" ? "Delete" : "Deleting…"}
      </button>
      {refusal?.message || fetcher.failure ? (
        <span role="alert">{refusal?.message ?? fetcher.failure?.message}</span>
      ) : null}
    </fetcher.Form>
  );
}
