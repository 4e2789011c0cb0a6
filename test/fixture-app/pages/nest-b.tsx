// /nest/:section/b: one of two sibling pages below three nested layouts (./nest-page.tsx). Its
// loader reads what the outer layout's middleware set; its action shows middleware runs for it too,
// and a middleware of its own says notFound() when the URL asks (`?gone=1`).
import * as v from "valibot";
import { action, type Actions, type LoaderArgs, type PageProps } from "verge";
import { nestGone, nestLoad, visitKey } from "../nest.server";
import { NestPage } from "./nest-page";

export const title = "Nest b";
export const middleware = [nestGone];

export async function loader({ url, context }: LoaderArgs<"/nest/:section/b">) {
  return { ...(await nestLoad("page", url)), via: context.get(visitKey).via };
}

export const actions = {
  touch: action(v.object({}), ({ context }) => ({ touched: context.get(visitKey).via })),
} satisfies Actions;

export default function NestB(props: PageProps<typeof loader, "/nest/:section/b", typeof actions>) {
  return <NestPage name="b" {...props} />;
}
