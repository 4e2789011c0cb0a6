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

/** The params `href` takes after a pattern (a union of patterns, when inference falls back to all: any of theirs). */
type HrefArgs<P extends string> = P extends string
  ? [ParamNames<P>] extends [never]
    ? []
    : [params: Params<P>]
  : never;

/**
 * The address of one of the app's pages: `href("/users/:id", { id: "7" })` is "/users/7". Only the
 * route table's patterns compile, each with exactly its params (encoded into the path).
 */
export function href<P extends RoutePattern>(pattern: P, ...[params]: HrefArgs<P>): string {
  const values = (params ?? {}) as Record<string, string>;
  return pattern.replace(/:([^/]+)/g, (_, name: string) => encodeURIComponent(values[name]!));
}
