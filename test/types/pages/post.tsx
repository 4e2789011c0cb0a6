// A page that expects a :slug param (type tests): it does not fit "/users/:id".
import type { PageProps } from "verge";

export const title = "Post";

export default function Post({ params }: PageProps<null, "/posts/:slug">) {
  return <p>{params.slug}</p>;
}
