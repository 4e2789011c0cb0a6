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

/**
 * Resolves once the router has handed React the page it was given: it does so a few microtasks
 * after showPage() is called (its chunks are loaded), well within a task. React holds every
 * transition begun during the action until the action ends, so the page, the form's status and
 * the optimistic value change in one commit; awaiting showPage() itself there would never end.
 */
export const pageHandedOver = () => new Promise<void>((resolve) => setTimeout(resolve));
