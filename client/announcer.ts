// What the route announcer says after a client navigation (docs/protocol.md, "Route announcer").

export interface Heading {
  title: string;
  h1: string;
}

/** The title and first h1 of the page on screen, to compare the next page against. */
export function currentHeading(): Heading {
  return {
    title: document.title.trim(),
    h1: document.querySelector("h1")?.textContent?.trim() ?? "",
  };
}

/**
 * The new page's title; if that is empty or the same as the previous page's, its first
 * h1 (so two pages that share a title are still told apart); failing that, its path.
 */
export function announcement(previous: Heading, path: string): string {
  const next = currentHeading();
  if (next.title && next.title !== previous.title) return next.title;
  if (next.h1 && next.h1 !== previous.h1) return next.h1;
  return path;
}
