// Deliberately wrong (test/node/type-errors.test.ts): the page reads its per-visitor data outside a
// hole; `visitor` is a Promise, readable only with <Await> inside <Suspense>.
import type { PageProps } from "verge";

export const title = "Hello";
export const cache = { maxAge: 60 };

export function visitorLoader() {
  return { name: "Ada" };
}

export default function Hello({ visitor }: PageProps<null, string, unknown, typeof visitorLoader>) {
  return <p>{visitor.name}</p>;
}
