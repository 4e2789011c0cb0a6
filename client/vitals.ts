// Web Vitals' first-paint part, a few bytes: a page load the server's rate samples imports the
// collector (client/vitals-report.ts) after the load event, once the main thread is idle.
import type { PageData } from "../src/shared/protocol";

/** Call once hydrated: nothing loads unless the page data asks for vitals and this load is drawn. */
export function startVitals(page: PageData): void {
  if (!(page.vitals! > Math.random())) return;
  // Safari has no requestIdleCallback: a task later there.
  const load = () =>
    (self.requestIdleCallback ?? setTimeout)(
      () =>
        import("./vitals-report").then(
          (collector) => collector.collect(page),
          () => {},
        ),
      { timeout: 5000 },
    );
  if (document.readyState === "complete") load();
  else addEventListener("load", load);
}
