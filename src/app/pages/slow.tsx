// Slow: the shell streams at once; a loader value that takes about a second follows
// in the same response, inside a Suspense boundary.
import { Await, type CachePolicy, type LoaderArgs, type PageProps } from "verge";
import { StreamedSection } from "../streamed-section";

export const title = "Slow";

/** Cached once rendered in full: a second visit gets the whole page at once, slow part and all. */
export const cache: CachePolicy = { maxAge: 60, staleWhileRevalidate: 300 };

export const meta = {
  description:
    "A page whose shell arrives at once and whose slow section streams in later, in the same response: React Suspense on Cloudflare Workers.",
};

const DELAY_MS = 1000;

interface SlowData {
  startedAt: string;
  slow: Promise<{ finishedAt: string; waitedMs: number }>;
}

export function loader(_: LoaderArgs): SlowData {
  const started = Date.now();
  return {
    startedAt: new Date(started).toISOString(),
    slow: new Promise((resolve) =>
      setTimeout(
        () => resolve({ finishedAt: new Date().toISOString(), waitedMs: Date.now() - started }),
        DELAY_MS,
      ),
    ),
  };
}

export default function Slow({ data }: PageProps<SlowData>) {
  return (
    <>
      <h1>Slow</h1>
      <p>
        This part was sent at once (request started <time dateTime={data.startedAt}>{data.startedAt}</time>).
      </p>
      <StreamedSection
        id="slow-heading"
        heading="The slow part"
        fallback={<p data-testid="slow-fallback">Loading the slow part…</p>}
      >
        <Await resolve={data.slow}>
          {(value) => (
            <p data-testid="slow-value">
              Arrived after {value.waitedMs} ms, at{" "}
              <time dateTime={value.finishedAt}>{value.finishedAt}</time>.
            </p>
          )}
        </Await>
      </StreamedSection>
    </>
  );
}
