// Nested layouts: `...layout(id, () => import(file), [pages])` in the route table wraps a group of
// pages (and layouts) in a component of its own, with its own loader, head, error view and
// middleware. The table stays a flat list: each line carries the chain of layouts above it.
import type { ComponentType, ReactNode } from "react";
import type { Params, Register } from "./href";
import type { Middleware } from "./middleware";
import type { Data } from "./page-data-types";
import type { LoaderArgs, PageMeta } from "./route-module";
import type { RouteDefinition } from "./routing";

/** What a layout module exports: a component, and optionally its loader, head, error view, middleware. */
export interface LayoutModule {
  /** Wraps its pages: renders `children` where they go. */
  default: ComponentType<any>; // any: each layout narrows its own props (LayoutProps)
  /** Server only: the layout's data, loaded beside its page's (never one after the other). */
  loader?: (args: LoaderArgs) => unknown;
  /**
   * Server only: the head's tags for every page below, under the page's own. Fixed, not from the
   * layout's data: a client navigation below the layout does not load that again.
   */
  meta?: PageMeta;
  /** Server only: the title of a page below, from the page's own: `(title) => \`${title} · Docs\``. */
  title?: (pageTitle: string) => string;
  /** Shown in place of what is below this layout when that fails (its chrome stays), with the digest. */
  ErrorView?: ComponentType<{ digest?: string }>;
  /** Server only: runs before every loader and action below (outermost first). */
  middleware?: readonly Middleware[];
}

/** One layout of the route table: its id, its module, and the params it reads (its pages' common prefix). */
export interface LayoutDefinition {
  id: string;
  load: () => Promise<LayoutModule>;
  /** The params of the pattern prefix every page below shares: a change of them reloads its data. */
  params: readonly string[];
}

/** A layout on screen (or being rendered): its id in the route table and its module. */
export interface MountedLayout {
  id: string;
  module: LayoutModule;
}

/** A layout component's props: `LayoutProps<typeof loader>`. */
export interface LayoutProps<L = unknown, P extends string = string> {
  children: ReactNode;
  data: Data<L>;
  params: Params<P>;
}

declare const layoutTag: unique symbol;

/** A table line below the layout `I` (module `M`): its type remembers the layout, for useLayoutData. */
export type UnderLayout<R, I extends string, M> = R & { readonly [layoutTag]?: Record<I, M> };

/** The params every one of `paths` has at the same place in its common prefix of segments. */
function sharedParams(paths: readonly string[]): string[] {
  const split = paths.map((path) => path.split("/").slice(1));
  const shared: string[] = [];
  for (let i = 0; split.every((parts) => i < parts.length && parts[i] === split[0]![i]); i++) {
    if (split[0]![i]!.startsWith(":")) shared.push(split[0]![i]!.slice(1));
  }
  return shared;
}

/**
 * Lines of the route table wrapped in a layout: spread it into the table,
 * `...layout("account", () => import("./layouts/account"), [page("/account", ...), ...])`.
 * Layouts nest (a layout's children may be layouts), each id once in the table.
 */
export function layout<
  const I extends string,
  M extends LayoutModule,
  const C extends readonly RouteDefinition<any>[],
>(id: I, load: () => Promise<M>, children: C): { [K in keyof C]: UnderLayout<C[K], I, M> } {
  const definition: LayoutDefinition = {
    id,
    load: load as () => Promise<LayoutModule>,
    params: sharedParams(children.map((child) => child.path)),
  };
  return children.map((child) => ({
    ...child,
    layouts: [definition, ...(child.layouts ?? [])],
  })) as never;
}

type RegisteredLines = Register extends { routes: infer R extends readonly unknown[] } ? R[number] : never;
type Layouts = RegisteredLines extends infer L
  ? L extends { readonly [layoutTag]?: infer M }
    ? NonNullable<M>
    : never
  : never;

/** The ids of the app's layouts (from its registered route table). */
export type LayoutId = Layouts extends infer M ? (M extends object ? keyof M & string : never) : never;

/** The data of layout `I` as its pages receive it. */
export type LayoutData<I extends LayoutId> = Extract<Layouts, Record<I, unknown>>[I] extends {
  loader: infer L;
}
  ? Data<L>
  : null;
