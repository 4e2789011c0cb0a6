// The browser's router as components see it. Null during server rendering: links and
// forms then behave as plain HTML, which is also what they do before hydration.
import { createContext, useContext } from "react";
import type { PageData } from "./protocol";

export interface ClientRouter {
  /** Client-side navigation to a same-origin URL (falls back to a full page load on failure). */
  navigate(href: string, options?: { replace?: boolean }): Promise<void>;
  /**
   * Shows a page the client already has the data for (an action's `page`), at `url`
   * (default: the current URL), without another request.
   */
  showPage(page: PageData, options?: { url?: string; replace?: boolean }): Promise<void>;
}

export const RouterContext = createContext<ClientRouter | null>(null);

export function useRouter(): ClientRouter | null {
  return useContext(RouterContext);
}
