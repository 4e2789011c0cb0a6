// The types a page's data takes on its way from the loader to the page: what JSON keeps of it.
import type { Redirect } from "./redirect";
import type { NotFound } from "./not-found";
import type { DataWith } from "./answers";

/** Values JSON leaves out of an object (and writes as null in an array). */
type Dropped = undefined | symbol | ((...args: never[]) => unknown);

/** A top-level Promise in a loader's data: streamed, and a Promise again for `<Await>`. */
declare const deferred: unique symbol;
interface Deferred<T> {
  [deferred]: T;
}

type Simplify<T> = { [K in keyof T]: T[K] } & {};

type KeyKind<T, K extends keyof T> = [Exclude<T[K], Dropped>] extends [never]
  ? "dropped"
  : {} extends Pick<T, K>
    ? "optional"
    : [Extract<T[K], Dropped>] extends [never]
      ? "required"
      : "optional";

type KeysOf<T, Kind extends string> = Exclude<
  { [K in keyof T]: K extends string ? (KeyKind<T, K> extends Kind ? K : never) : never }[keyof T],
  undefined
>;

type SerializedObject<T> = Simplify<
  { [K in KeysOf<T, "required">]: Serialized<Exclude<T[K], Dropped>> } & {
    [K in KeysOf<T, "optional">]?: Serialized<Exclude<T[K], Dropped>>;
  }
>;

type SerializedElement<V> = V extends Dropped ? null : Serialized<V>;

/**
 * What `JSON.parse(JSON.stringify(value))` gives back, as a type: a `Date` (anything with
 * `toJSON`) becomes what `toJSON` returns, `undefined`, function and symbol fields are dropped
 * (a field that may be `undefined` becomes optional), and in arrays they become `null`.
 */
export type Serialized<T> = 0 extends 1 & T
  ? any // any: an untyped value stays untyped
  : unknown extends T
    ? unknown
    : T extends Deferred<infer U>
      ? Promise<Serialized<U>>
      : T extends string | number | boolean | null
        ? T
        : T extends { toJSON(...args: never[]): infer J }
          ? Serialized<J>
          : T extends Dropped | bigint
            ? never
            : T extends readonly unknown[]
              ? { [I in keyof T]: SerializedElement<T[I]> }
              : T extends object
                ? SerializedObject<T>
                : never;

/** A loader's result without the redirects and notFound() it may return: the data a page is rendered with. */
export type LoaderData<L> = L extends (...args: never[]) => infer R
  ? Unwrapped<Exclude<Awaited<R>, Redirect | NotFound>>
  : L;

/** The value a `data(value, options)` result carries; other results as they are. */
type Unwrapped<R> = R extends DataWith<infer T> ? T : R;

type WithDeferred<D> = D extends readonly unknown[]
  ? D
  : D extends object
    ? { [K in keyof D]: D[K] extends PromiseLike<infer U> ? Deferred<U> : D[K] }
    : D;

/**
 * The data a page receives, from its loader's type (`Data<typeof loader>`) or from the data's own
 * type: serialised as JSON carries it, each top-level Promise a Promise of its serialised value.
 * `title` and `meta` functions receive the same.
 */
export type Data<L> = unknown extends L ? unknown : Serialized<WithDeferred<LoaderData<L>>>;
