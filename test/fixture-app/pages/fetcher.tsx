// /fetcher: useFetcher() driven from a page: a fetcher.Form posting to this page's action, a
// submit() to it under another address, and a load() of another page's data, each shown as text.
import { useFormStatus } from "react-dom";
import * as v from "valibot";
import { action, invalid, redirect, useFetcher, type Actions, type PageProps } from "verge";

export const title = "Fetcher";

/** What was saved, newest first: this worker's memory, enough for one test run. */
const notes: string[] = [];

export function loader() {
  // A new value each time the loader runs: the page shows whether it was revalidated.
  return { notes: notes.slice(0, 20), render: crypto.randomUUID() };
}

export const actions = {
  note: action(v.object({ text: v.pipe(v.string(), v.nonEmpty("Write a note.")) }), ({ input }) => {
    if (input.text.startsWith("refuse")) return invalid({ text: "Not that note." });
    if (input.text.startsWith("redirect")) return redirect(`/echo?text=${encodeURIComponent(input.text)}`);
    notes.unshift(input.text);
    return { saved: input.text };
  }),
} satisfies Actions;

function SaveButton() {
  const { pending } = useFormStatus();
  return <button type="submit">{pending ? "Saving…" : "Save"}</button>;
}

export default function FetcherPage({ data }: PageProps<typeof loader, "/fetcher", typeof actions>) {
  const fetcher = useFetcher<{ saved: string }>();
  const echo = useFetcher<{ text: string }>();
  return (
    <>
      <h1>Fetcher</h1>
      <fetcher.Form actionName="note">
        <label htmlFor="note-text">Note</label>
        <input id="note-text" name="text" />
        <SaveButton />
      </fetcher.Form>
      <button
        type="button"
        onClick={() =>
          void fetcher.submit(
            { text: "sent by submit" },
            { actionName: "note", action: "/fetcher?via=submit" },
          )
        }
      >
        Submit elsewhere
      </button>
      <p data-testid="fetcher-state">{fetcher.state}</p>
      <p data-testid="fetcher-data">{JSON.stringify(fetcher.data ?? null)}</p>
      <button type="button" onClick={() => void echo.load("/echo?text=hello")}>
        Load the echo
      </button>
      <p data-testid="echo-state">{echo.state}</p>
      <p data-testid="echo-data">{echo.data && "text" in echo.data ? echo.data.text : ""}</p>
      <p data-testid="render">{data.render}</p>
      <ul data-testid="notes">
        {data.notes.map((note, i) => (
          <li key={i}>{note}</li>
        ))}
      </ul>
      <a href="/echo?text=after">Echo after</a>
    </>
  );
}
