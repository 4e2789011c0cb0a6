// /errors/stream: the shell streams, then a deferred loader value fails: the section
// shows the route error view with its digest, the status stays 200, the rest still works.
import { Await, type PageProps } from "verge";
import { StreamedSection } from "../streamed-section";

export const title = "Stream error";

export const meta = {
  description:
    "A streamed section fails on purpose after the shell was sent: an error view with a digest in its place, the rest of the page still usable.",
};

interface StreamErrorData {
  failing: Promise<string>;
}

export function loader(): StreamErrorData {
  return {
    failing: new Promise((_, reject) =>
      setTimeout(() => reject(new Error("Streamed section failed on purpose (/errors/stream)")), 300),
    ),
  };
}

export default function StreamError({ data }: PageProps<StreamErrorData>) {
  return (
    <>
      <h1>Stream error</h1>
      <p>The page around the failing section was sent first and stays usable.</p>
      <StreamedSection
        id="failing-heading"
        heading="A section that fails"
        fallback={<p>Loading this section…</p>}
      >
        <Await resolve={data.failing}>{(value) => <p>{value}</p>}</Await>
      </StreamedSection>
      <p>
        <a href="/">Back to the home page</a>
      </p>
    </>
  );
}
