// <Link>: a plain <a> to one of the app's own addresses, with a say in when it is prefetched.
import { useEffect, type AnchorHTMLAttributes, type Ref } from "react";
import type { RoutePattern } from "./href";
import { useRouter } from "./router-context";

/** A pattern's addresses: each `:param` segment any text (`/users/:id` takes `/users/${string}`). */
type PathOf<P extends string> = P extends `${infer Head}:${string}/${infer Tail}`
  ? `${Head}${string}/${PathOf<Tail>}`
  : P extends `${infer Head}:${string}`
    ? `${Head}${string}`
    : P;

/** An address of the app (registered patterns, as `Register` says), with a query or hash if any. */
export type Href = string extends RoutePattern
  ? string
  : PathOf<RoutePattern> | `${PathOf<RoutePattern>}${"?" | "#"}${string}`;

export interface LinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href"> {
  to: Href;
  /**
   * When the page's data and chunks load ahead of a click: on hover, focus or touch ("intent",
   * what every same-site <a> does), as soon as the link is shown ("render"), or never ("none").
   */
  prefetch?: "intent" | "render" | "none";
  /** Replaces the history entry instead of adding one. */
  replace?: boolean;
  ref?: Ref<HTMLAnchorElement>;
}

export function Link({ to, prefetch, replace, ...anchor }: LinkProps) {
  const router = useRouter();
  useEffect(() => {
    if (prefetch === "render" && router) router.prefetch(new URL(to, location.href));
  }, [router, prefetch, to]);
  // The document's listeners (client/navigation.ts) follow the link and read these.
  return (
    <a
      {...anchor}
      href={to}
      data-prefetch={prefetch === "none" ? prefetch : undefined}
      data-replace={replace ? "" : undefined}
    />
  );
}
