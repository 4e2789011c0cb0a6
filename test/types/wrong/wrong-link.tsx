// Deliberately wrong (test/node/type-errors.test.ts): a link to a path no route has.
import { href } from "verge";

export const title = "Links";

export default function Links() {
  return <a href={href("/guestbok")}>Guestbook</a>;
}
