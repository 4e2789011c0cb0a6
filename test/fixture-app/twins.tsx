// The twin pages' shared body: two pages with one title, so the route announcer must
// tell them apart by their headings (docs/protocol.md, "Route announcer").
import type { LoaderArgs, PageProps } from "verge";

export const TWINS_TITLE = "Twins";

export interface TwinData {
  /** The twin the visitor came from (`?from=`), if any. */
  from: string | null;
  /** The query string as the loader saw it: page-data markers never show up here. */
  query: string;
}

export function twinLoader({ url }: LoaderArgs): TwinData {
  return { from: url.searchParams.get("from"), query: url.search };
}

export function TwinPage({ name, other, data }: { name: string; other: string } & PageProps<TwinData>) {
  return (
    <>
      <h1>Twin {name}</h1>
      <p>
        This page and twin {other} share the title &ldquo;{TWINS_TITLE}&rdquo;. After a client-side navigation
        between them, a screen reader hears the heading instead, since the title did not change.
      </p>
      {data.from ? <p data-testid="twin-from">You came from twin {data.from}.</p> : null}
      <p id="other-twin">
        <a href={`/twins/${other}?from=${name}`}>Go to twin {other}</a>
      </p>
    </>
  );
}
