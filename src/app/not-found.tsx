// The page shown, inside the layout, for a path no route matches.
import type { PageMeta } from "verge";

export const meta: PageMeta = { description: "There is no page at this address.", robots: "noindex" };

export default function NotFound() {
  return (
    <>
      <h1>Page not found</h1>
      <p>There is no page at this address.</p>
      <p>
        <a href="/">Go to the home page</a>
      </p>
    </>
  );
}
