// How the runtime's component factories (formFor) reach `npm run dev`'s Fast Refresh
// (client/dev.ts): a hook on globalThis that only the dev server's page sets.

/** Where client/dev.ts puts the hook. */
export const FAST_REFRESH_HOOK = "__vergeRefreshMade";

/** The event `vite dev` sends the page when server code changed: it refetches its data. */
export const DATA_CHANGED_EVENT = "verge:data-changed";

/** Where development keeps its one form context across runs of form.tsx. */
export const FORM_CONTEXT_KEY = "__vergeFormContext";

/** Takes a component a factory made, named by what made it (`formFor(sign)`). */
export type RefreshMade = (type: unknown, name: string) => void;

/**
 * Tells Fast Refresh about a component made at a module's top, which its transform cannot see:
 * registered under that module, the component made when the module runs again after an edit is
 * the same component to React, which then keeps its state and its DOM (text typed in a form).
 */
export function madeForRefresh(type: unknown, name: string): void {
  (globalThis as { [FAST_REFRESH_HOOK]?: RefreshMade })[FAST_REFRESH_HOOK]?.(type, name);
}
