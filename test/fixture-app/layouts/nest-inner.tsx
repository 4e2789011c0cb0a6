// The inner of three nested test layouts (test/fixture-app/routes.ts): a loader of its own (a delay
// and a failure the URL asks for), an error view, and a counter a client navigation keeps.
import type { LayoutProps, LoaderArgs } from "verge";
import { nestLoad } from "../nest.server";
import { Frame, errorView } from "./nest-view";

export const loader = ({ url }: LoaderArgs) => nestLoad("inner", url);

export const ErrorView = errorView("inner");

export default function Inner({ children, data }: LayoutProps<typeof loader>) {
  return (
    <Frame id="inner" loads={data.loads}>
      {children}
    </Frame>
  );
}
