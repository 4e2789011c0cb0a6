// /echo: a GET form whose value comes back through the loader into the page, its title and
// the embedded page data, so reflected input (markup, "</script>", U+2028) can be tried end to end.
import type { LoaderArgs, PageProps } from "verge";

/** The query parameter the form submits and the loader reads. */
export const ECHO_PARAM = "text";

interface EchoData {
  text: string;
}

export function loader({ url }: LoaderArgs): EchoData {
  return { text: url.searchParams.get(ECHO_PARAM) ?? "" };
}

export const title = (data: EchoData) => (data.text ? `Echo: ${data.text}` : "Echo");

export default function Echo({ data }: PageProps<EchoData>) {
  return (
    <>
      <h1>Echo</h1>
      <p>Whatever you send comes back as text: in this page, its title and its embedded data.</p>
      <form method="get" action="/echo">
        <label htmlFor="echo-text">Text to echo</label>
        <input id="echo-text" name={ECHO_PARAM} defaultValue={data.text} maxLength={2000} />
        <p>
          <button type="submit">Echo it</button>
        </p>
      </form>
      {data.text ? (
        <p>
          You sent: <strong data-testid="echo-output">{data.text}</strong>
        </p>
      ) : null}
    </>
  );
}
