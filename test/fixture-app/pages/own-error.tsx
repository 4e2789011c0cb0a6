// A page with an error view of its own (at /own-error, and below the nested layouts): its loader
// fails when the URL says `fail=page`, its render when it says `throw=render`, and it returns
// notFound() for `missing=page`.
import { notFound, type LoaderArgs, type PageProps } from "verge";

export const title = "Own error";

export function loader({ url }: LoaderArgs) {
  if (url.searchParams.get("fail") === "page") throw new Error("own page failed on purpose");
  if (url.searchParams.get("missing") === "page") return notFound();
  return { render: url.searchParams.get("throw") === "render" };
}

export function ErrorView({ digest }: { digest?: string }) {
  return (
    <div role="alert" data-testid="own-error">
      <p>This page could not be shown.</p>
      {digest ? (
        <p>
          Digest: <code data-testid="digest">{digest}</code>
        </p>
      ) : null}
    </div>
  );
}

export default function OwnError({ data }: PageProps<typeof loader>) {
  if (data.render) throw new Error("own page render failed on purpose");
  return <h1>Own error</h1>;
}
