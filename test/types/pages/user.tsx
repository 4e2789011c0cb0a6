// A page for "/users/:id" (type tests): typed params, a Date in its data, a deferred value.
import type { LoaderArgs, PageProps } from "verge";

export const title = "User";

export function loader({ params }: LoaderArgs<"/users/:id">) {
  return {
    id: params.id,
    joined: new Date(0),
    nickname: undefined as string | undefined,
    posts: Promise.resolve([1]),
  };
}

export default function User({ data, params }: PageProps<typeof loader, "/users/:id">) {
  return (
    <p>
      {params.id} {data.joined} {data.nickname}
    </p>
  );
}
