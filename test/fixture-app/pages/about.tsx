// /about: the new page docs/testing.md's "Testing your product" tests, in workerd
// (test/worker/about-page.test.ts) and in Chromium (test/e2e/about-page.test.ts).
import { Form, type Action, type LoaderArgs, type PageProps } from "verge";

export const title = "About";

export async function loader({ url }: LoaderArgs<"/about">) {
  return { visitors: 42, from: url.searchParams.get("from") ?? "nowhere" };
}

export const actions = {
  wave: (({ fields }) => ({ waved: fields.name ?? "someone" })) satisfies Action<{ waved: string }, "/about">,
};

export default function About({ data }: PageProps<typeof loader, "/about", typeof actions>) {
  return (
    <>
      <h1>About</h1>
      <p>{`${data.visitors} visitors, this one from ${data.from}`}</p>
      <Form actionName="wave" successMessage="Thanks for waving.">
        <input type="hidden" name="name" value="a visitor" />
        <button type="submit">Wave</button>
      </Form>
    </>
  );
}
