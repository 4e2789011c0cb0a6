// The layouts' data as pages read it: `useLayoutData(id)`, and the context the layouts' view
// provides it through. Apart from layouts.ts (the table's `layout()`, which every first load
// carries): only pages below a layout and the layouts' view load it.
import { createContext, createElement, useContext, type ReactNode } from "react";
import type { LayoutData, LayoutId } from "./layouts";

/** The data of each layout on screen, by id (the runtime provides it around every page). */
export const LayoutDataContext = createContext<Readonly<Record<string, unknown>>>({});

/**
 * The data of a layout above this page (or layout): `useLayoutData("account")`, typed by that
 * layout's loader. Throws when the page is not below that layout.
 */
export function useLayoutData<I extends LayoutId>(id: I): LayoutData<I> {
  const all = useContext(LayoutDataContext);
  if (!Object.hasOwn(all, id)) {
    throw new Error(`useLayoutData("${id}"): this page is not below the layout "${id}" in the route table`);
  }
  return all[id] as LayoutData<I>;
}

/** Provides the data of the layouts above, for useLayoutData. */
export function LayoutDataProvider({
  value,
  children,
}: {
  value: Record<string, unknown>;
  children: ReactNode;
}) {
  return createElement(LayoutDataContext, { value }, children);
}
