// The outer of three nested test layouts (test/fixture-app/routes.ts): a loader of its own (a delay
// and a failure the URL asks for), an error view, and a counter a client navigation keeps.
import type { LayoutProps, LoaderArgs } from "verge";
import { nestLoad, nestGuard } from "../nest.server";
import { Frame, errorView } from "./nest-view";

export const loader = ({ url }: LoaderArgs) => nestLoad("outer", url);
export const middleware = [nestGuard];
export const title = (page: string) => `${page} · Nest`;
export const ErrorView = errorView("outer");

export default function Outer({ children, data }: LayoutProps<typeof loader>) {
  return (
    <Frame id="outer" loads={data.loads}>
      {children}
    </Frame>
  );
}
