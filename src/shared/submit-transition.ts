// Submissions as React actions: a verge form's request runs in a transition, so React 19's
// useFormStatus() and useOptimistic() follow it as they follow a form whose action is a function.
import { startTransition } from "react";

/**
 * Runs `send` as an async transition. Started in a submit event whose default was prevented,
 * React marks that form's useFormStatus() pending until `send` settles (the form keeps its URL
 * `action`, so without JavaScript it posts as before, and React does not reset it afterwards).
 * A useOptimistic() value set in the same event, or in a transition while `send` runs, shows
 * until then.
 */
export function sendInTransition(send: () => Promise<void>): void {
  startTransition(send);
}

/** Sets optimistic state from `data` inside the running submission's transition. */
export function showOptimistic(optimistic: ((data: FormData) => void) | undefined, data: () => FormData) {
  if (optimistic) startTransition(() => optimistic(data()));
}

/** Who waits for the router to hand React its next page (pageHandedOver). */
const waiting = new Set<() => void>();

/** The client calls this as it hands React a page to show, in the router's transition (client/app.tsx). */
export function pageHandedToReact(): void {
  for (const resolve of waiting) resolve();
  waiting.clear();
}

/**
 * Resolves once the router has handed React the page a submission's answer brought (or `shown`,
 * its showPage(), settled without it: a full load, a newer navigation). React holds every
 * transition begun during the action until the action ends, so ending it then changes the page,
 * the form's status and an optimistic value in one commit; awaiting `shown` itself there would
 * never end, and waiting a fixed while leaves a frame without either under load.
 */
export function pageHandedOver(shown: Promise<unknown>): Promise<void> {
  let done!: () => void;
  const handedOver = new Promise<void>((resolve) => waiting.add((done = resolve)));
  void shown.then(done, done);
  return handedOver.finally(() => waiting.delete(done));
}
