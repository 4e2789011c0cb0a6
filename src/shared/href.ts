// Typed addresses: a route pattern's params, and href() over the app's own patterns.
type ParamNames<P extends string> = P extends `${string}:${infer Rest}`
  ? Rest extends `${infer Name}/${infer Tail}`
    ? Name | ParamNames<Tail>
    : Rest
  : never;

/** A pattern's params by name: `Params<"/users/:id">` is `{ id: string }`. */
export type Params<P extends string = string> = string extends P
  ? Record<string, string>
  : { [K in ParamNames<P>]: string };

/**
 * What the app tells verge about itself, for types only. src/app/routes.ts registers its route
 * table, so `href()` accepts only its patterns and each page is checked against its pattern:
 * `declare module "verge" { interface Register { routes: Routes<typeof routes> } }`.
 */
export interface Register {}

type Routes = Register extends { routes: infer R extends readonly { path: string }[] }
  ? R
  : readonly { path: string }[];

/** The app's route patterns, from its route table (`Register`); any string before it is registered. */
export type RoutePattern = Routes[number]["path"];

/** A param's value in an address: a number is written as JavaScript writes it (`7`, `2.5`). */
type HrefParams<P extends string> = { [K in ParamNames<P>]: string | number };

/** An address's query: each value written as text, one left out when null or undefined. */
export type SearchValues = Record<string, string | number | boolean | null | undefined>;

/** What `href` takes after a pattern: its params (none, or `{}`, for a pattern without), then a query. */
type HrefArgs<P extends string> = P extends string
  ? [ParamNames<P>] extends [never]
    ? [params?: Record<string, never>, search?: SearchValues]
    : [params: HrefParams<P>, search?: SearchValues]
  : never;

/**
 * The address of one of the app's pages: `href("/users/:id", { id: 7 })` is "/users/7", and
 * `href("/guestbook", {}, { page: 2 })` is "/guestbook?page=2". Only the route table's patterns
 * compile, each with exactly its params (encoded into the path). React Router's `href` takes the
 * same two arguments; the query is a third, as its `generatePath` leaves it to the caller.
 */
export function href<P extends RoutePattern>(pattern: P, ...[params, search]: HrefArgs<P>): string {
  // A pattern with a param has its params (HrefArgs): no `{}` to fall back to.
  const values = params as Record<string, string | number>;
  const path = pattern.replace(/:([^/]+)/g, (_, name: string) => encodeURIComponent(values[name]!));
  // URLSearchParams writes each value as text (its pairs are strings to Web IDL).
  const pairs = Object.entries(search ?? {}).filter(([, value]) => value != null) as string[][];
  const query = `${new URLSearchParams(pairs)}`;
  return query ? `${path}?${query}` : path;
}
