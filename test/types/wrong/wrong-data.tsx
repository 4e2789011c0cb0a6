// Deliberately wrong (test/node/type-errors.test.ts): the page reads a field its loader lacks.
import type { PageProps } from "verge";

export const title = "About";

export function loader() {
  return { visitors: 42 };
}

export default function About({ data }: PageProps<typeof loader>) {
  return <p>{data.visitor}</p>;
}
