// /nest/:section/a: one of two sibling pages below three nested layouts (./nest-page.tsx). Its
// loader reads what the outer layout's middleware set; its action shows middleware runs for it too.
// Its `find` action (the form below the page) says notFound() for any id but "known".
// Two more actions, for what the client keeps after an action: one redirects to page b (as "save,
// then back to the list" does), one is refused.
import * as v from "valibot";
import {
  action,
  Form,
  invalid,
  notFound,
  redirect,
  type Actions,
  type LoaderArgs,
  type PageProps,
} from "verge";
import { nestLoad, visitKey } from "../nest.server";
import { NestPage } from "./nest-page";

export const title = "Nest a";

export async function loader({ url, context }: LoaderArgs<"/nest/:section/a">) {
  return { ...(await nestLoad("page", url)), via: context.get(visitKey).via };
}

export const actions = {
  touch: action(v.object({}), ({ context }) => ({ touched: context.get(visitKey).via })),
  find: action(v.object({ id: v.string() }), ({ input }) =>
    input.id === "known" ? { found: input.id } : notFound(),
  ),
  moveOn: action(v.object({}), ({ params }) => redirect(`/nest/${params.section}/b`)),
  refuse: action(v.object({}), () => invalid({}, { message: "Refused on purpose." })),
} satisfies Actions;

export default function NestA(props: PageProps<typeof loader, "/nest/:section/a", typeof actions>) {
  return (
    <>
      <NestPage name="a" {...props} />
      <Form actionName="find">
        <label htmlFor="find-id">Id</label> <input id="find-id" name="id" />{" "}
        <button type="submit">Find</button>
      </Form>
      <Form actionName="moveOn">
        <button type="submit">Move on to b</button>
      </Form>
      <Form actionName="refuse">
        <button type="submit">Be refused</button>
      </Form>
    </>
  );
}
