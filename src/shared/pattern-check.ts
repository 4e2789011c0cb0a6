// page()'s own check, at its line in the route table: the params a page module reads are its
// pattern's, else tsc prints one sentence there (route-module.ts's Routes<> checks the rest).
import type { Params } from "./href";
import type { ActionArgs, LoaderArgs } from "./route-module";

/**
 * What page() checks at its line: the params each export reads are the pattern's. Only parameter
 * types: a return type (a loader's data) may call href(), which needs the table being typed, so
 * data is Routes<>'s to check. `any` where a slot is not checked here (a return, data).
 */
type ReadsPatternParams<P extends string> = {
  default?: unknown;
  loader?: (args: LoaderArgs<P>) => any;
  visitorLoader?: (args: LoaderArgs<P>) => any;
  actions?: Record<string, { run(args: ActionArgs<P>): any }["run"]>;
};

/**
 * The params a page component reads (its props' `params`), read alone: comparing its whole props
 * would resolve its `data`, the loader's return type. (`any` returns here and below: a return
 * type is never read, so never inferred.)
 */
type ComponentParams<C> = C extends (props: infer Props) => any
  ? Props extends { params: infer Q }
    ? Q
    : unknown
  : unknown;

/** Whether module `M` has a component, and every export reads only pattern `P`'s params. */
export type FitsPattern<P extends string, M> = M extends { default: infer C }
  ? [Params<P>] extends [ComponentParams<C>]
    ? [M] extends [ReadsPatternParams<P>]
      ? true
      : false
    : false
  : false;

/** The names of the params a function's argument reads (its `params`' keys). */
type ParamsRead<F> = F extends (arg: infer A) => any
  ? A extends { params: infer Q }
    ? keyof Q & string
    : never
  : never;

/** The params module `M` reads (its component's, loader's, per-visitor loader's) that pattern `P` lacks. */
type Unknown<P extends string, M> = Exclude<
  ParamsRead<M[keyof M & ("default" | "loader" | "visitorLoader")]>,
  keyof Params<P>
>;

/** Why module `M` does not fit pattern `P`, in one sentence (tsc prints it at the page() line). */
type Misfit<P extends string, M> = [Unknown<P, M>] extends [never]
  ? `page('${P}'): its module does not fit the pattern (a component, a loader or an action expects other params)`
  : `page('${P}'): its module reads the param '${Unknown<P, M>}', which the pattern does not have`;

/** `load` when its module reads only the pattern's params, else the sentence saying why. */
export type PageLoad<P extends string, M> = FitsPattern<P, M> extends true ? () => Promise<M> : Misfit<P, M>;
