// The cross-fade between pages: React's <ViewTransition>, active only for a client navigation to
// another page. The layout places it around what changes from page to page.
import { ViewTransition, type ReactNode } from "react";

/**
 * The transition type the client router gives a navigation to another page (a link followed, a
 * form that leads elsewhere), unless the visitor asked for less motion. Back/Forward, a page
 * re-rendered after its action and a streamed section's reveal have none: they swap in place.
 */
export const NAVIGATION_TRANSITION = "verge-navigation";

export interface PageTransitionProps {
  /** The element the browser snapshots: one element (its box is what fades). */
  children: ReactNode;
  /**
   * The `view-transition-class` of a navigation, for CSS such as
   * `::view-transition-old(.slide)`; default "auto", the browser's cross-fade.
   */
  className?: string;
}

/**
 * Wrap the layout's page slot (say `<main>`) in it: a navigation to another page cross-fades the
 * old page into the new one in a view transition, and nothing else animates it.
 */
export function PageTransition({ children, className = "auto" }: PageTransitionProps) {
  return (
    <ViewTransition default="none" update={{ [NAVIGATION_TRANSITION]: className, default: "none" }}>
      {children}
    </ViewTransition>
  );
}
