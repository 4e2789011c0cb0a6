// A client navigation's own figures: web-vitals measures documents (and back/forward cache
// restores), so a view the router began is measured here from the browser's timing entries: FCP
// as the frame after the page is committed (as web-vitals measures a restore's), CLS as the sum of
// the layout shifts no input caused (a client view is mostly shorter than CLS's 5 s session window).
import type { VitalName } from "../src/shared/vitals";

type LayoutShift = PerformanceEntry & { value: number; hadRecentInput: boolean };

/**
 * Measures the view begun at `start` (ms from the time origin), whose page is on screen now;
 * `record` gets each figure as it changes.
 */
export function measureClientView(start: number, record: (name: VitalName, value: number) => void): void {
  requestAnimationFrame(() => requestAnimationFrame(() => record("fcp", performance.now() - start)));
  if (!PerformanceObserver.supportedEntryTypes.includes("layout-shift")) return;
  let cls = 0;
  record("cls", cls);
  // From the commit on: a shift between the click and it follows the input, which CLS leaves out.
  new PerformanceObserver((list) => {
    for (const shift of list.getEntries() as LayoutShift[])
      if (!shift.hadRecentInput) record("cls", (cls += shift.value));
  }).observe({ type: "layout-shift" });
}
