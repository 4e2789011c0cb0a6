// Link's `to` and navigate's take the registered routes' addresses only: a pattern's params as any
// text, a query or a hash after; any other path does not compile (tsc, through npm run typecheck).
import { Link, navigate, type Href } from "verge";

export const links = (
  <>
    <Link to="/guestbook?page=2">Guestbook, page 2</Link>
    <Link to="/sign-in/options" prefetch="none">
      A param
    </Link>
    <Link to="/account#entries" replace prefetch="render">
      A hash
    </Link>
    {/* @ts-expect-error: no route has this path */}
    <Link to="/guestbok">Misspelled</Link>
  </>
);

export const fine: Href = "/account/passkeys";
// @ts-expect-error: a path no route has
export const wrong: Href = "/nowhere";
// @ts-expect-error: navigate takes the same addresses
void (() => navigate("/nowhere"));
