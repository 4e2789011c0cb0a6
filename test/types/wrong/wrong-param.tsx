// Deliberately wrong (test/node/type-errors.test.ts): the page reads a param its pattern lacks.
import type { PageProps } from "verge";

export const title = "User";

export default function User({ params }: PageProps<null, "/users/:id">) {
  return <p>{params.slug}</p>;
}
