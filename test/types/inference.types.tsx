// Type tests, run by `npm run typecheck` (tsc): what pages get from their loader, pattern and
// actions, and what does not compile. A wrong line is marked @ts-expect-error: if it ever
// compiled, tsc would fail on the unused directive.
import * as v from "valibot";
import { expectTypeOf } from "vitest";
import {
  action,
  formFor,
  href,
  page,
  endpoint,
  type Actions,
  type Data,
  type EndpointArgs,
  type PageProps,
  type Params,
  type Routes,
  RadioGroup,
  Select,
} from "verge";
import { loader as userLoader } from "./pages/user";

// Data: what JSON brings to the page.
type UserData = Data<typeof userLoader>;
expectTypeOf<UserData["joined"]>().toEqualTypeOf<string>();
expectTypeOf<UserData["posts"]>().toEqualTypeOf<Promise<number[]>>();
expectTypeOf<UserData>().toEqualTypeOf<{
  id: string;
  joined: string;
  posts: Promise<number[]>;
  nickname?: string;
}>();
expectTypeOf<Data<() => { gone: undefined; f: () => void; list: (string | undefined)[] }>>().toEqualTypeOf<{
  list: (string | null)[];
}>();
// A redirect is not data.
expectTypeOf<Data<() => Promise<{ a: 1 } | ReturnType<typeof import("verge").redirect>>>>().toEqualTypeOf<{
  a: 1;
}>();

// Params from the pattern.
expectTypeOf<Params<"/users/:id/posts/:post">>().toEqualTypeOf<{ id: string; post: string }>();
expectTypeOf<Params<"/">>().toEqualTypeOf<{}>();

function UserPage({ data, params }: PageProps<typeof userLoader, "/users/:id">) {
  // @ts-expect-error: the loader returns no `name`
  data.name;
  // @ts-expect-error: "/users/:id" has no :slug
  params.slug;
  return <p>{data.id + params.id}</p>;
}
void UserPage;

// href() over the registered table (src/app/routes.ts).
expectTypeOf(href("/guestbook")).toEqualTypeOf<string>();
// @ts-expect-error: no such route
href("/guestbok");
// @ts-expect-error: no params on "/guestbook"
href("/guestbook", { page: "2" });
// Numbers as params, and a query after them (null and undefined left out).
expectTypeOf(href("/sign-in/:step", { step: 2 })).toEqualTypeOf<string>();
href("/guestbook", {}, { page: 2, from: null });
href("/guestbook", undefined, { page: "2", all: true });
href("/sign-in/:step", { step: "options" }, { next: "/account" });
// @ts-expect-error: a param is text or a number
href("/sign-in/:step", { step: true });
// @ts-expect-error: the query comes after the params, never in their place
href("/sign-in/:step", { next: "/account" });
// @ts-expect-error: a query value is text, a number, a boolean or nothing
href("/guestbook", {}, { page: [1, 2] });

// Actions: a schema's fields, typed where the page reads them.
const Sign = v.object({ name: v.string(), age: v.pipe(v.string(), v.transform(Number)) });
const actions = {
  sign: action(Sign, ({ input }) => {
    expectTypeOf(input).toEqualTypeOf<{ name: string; age: number }>();
    return { signed: input.name };
  }),
} satisfies Actions;
const sign = formFor<typeof actions>()("sign");
function SignForm({ actionData }: PageProps<null, "/sign", typeof actions>) {
  expectTypeOf(actionData!.fieldErrors).toEqualTypeOf<Partial<Record<"name" | "age", string>>>();
  const { result } = sign.useFormState();
  expectTypeOf(result).toEqualTypeOf<{ signed: string } | undefined>();
  return (
    <sign.Form actionData={actionData}>
      <sign.Field name="name" label="Name" />
      {/* @ts-expect-error: the schema has no "nmae" */}
      <sign.Field name="nmae" label="Name" />
      <sign.Field name="age" label="Age" as={Select} options={["18", { value: "65", label: "65+" }]} />
      <sign.Field name="age" label="Age" as={RadioGroup} options={["18", "65"]} defaultValue="18" />
      <sign.Field name="name" label="Keep my name" type="checkbox" value="yes" defaultChecked />
      <sign.Field name="name" type="hidden" value={7} />
      {/* @ts-expect-error: a choice field's name is the schema's too */}
      <sign.Field name="agee" label="Age" as={Select} options={["18"]} />
      {/* @ts-expect-error: a select needs its options */}
      <sign.Field name="age" label="Age" as={Select} />
      {/* @ts-expect-error: a hidden input needs its value */}
      <sign.Field name="name" type="hidden" />
      {/* @ts-expect-error: "select" is no input type: a select is `as={Select}` */}
      <sign.Field name="age" label="Age" type="select" />
    </sign.Form>
  );
}
void SignForm;
// @ts-expect-error: the page has no action "sing"
formFor<typeof actions>()("sing");

// Routes<>: each page module checked against its pattern.
const good = [
  page("/users/:id", () => import("./pages/user")),
  page("/posts/:slug", () => import("./pages/post")),
];
expectTypeOf<Routes<typeof good>>().toEqualTypeOf<typeof good>();
// A module reading params its pattern lacks fails at its page() line (once: Routes<> then passes it).
// @ts-expect-error: the post page expects :slug, "/users/:id" gives :id
const bad = [page("/users/:id", () => import("./pages/post"))];
expectTypeOf<Routes<typeof bad>>().toEqualTypeOf<typeof bad>();
// A page whose component expects other data than its loader gives: Routes<> catches it.
const otherData = [
  page("/users/:id", async () => ({
    title: "User",
    loader: () => ({ id: "7" }),
    default: ({ data }: PageProps<() => { name: string }, "/users/:id">) => data.name,
  })),
];
// @ts-expect-error: the component reads `name`, the loader gives `id`
type OtherData = Routes<typeof otherData>;

// Endpoints: each handler checked against its line's pattern, its params typed.
expectTypeOf<EndpointArgs<"/api/:id">["params"]>().toEqualTypeOf<{ id: string }>();
const endpoints = [
  endpoint("/posts/:slug", () => import("./endpoints/post")),
  endpoint("/api/:id", async () => ({
    crossSite: true,
    cache: { maxAge: 60, query: ["page"] },
    POST: ({ params }: EndpointArgs<"/api/:id">) => new Response(params.id),
  })),
  page("/users/:id", () => import("./pages/user")),
];
expectTypeOf<Routes<typeof endpoints>>().toEqualTypeOf<typeof endpoints>();
const badEndpoint = [endpoint("/users/:id", () => import("./endpoints/post"))];
// @ts-expect-error: the post endpoint expects :slug, "/users/:id" gives :id
type BadEndpoint = Routes<typeof badEndpoint>;
const notResponse = [endpoint("/x", async () => ({ GET: () => "text" }))];
// @ts-expect-error: a handler answers with a Response
type NotResponse = Routes<typeof notResponse>;
