// A client navigation's own figures: web-vitals measures documents (and back/forward cache
// restores), so a view the router began is measured here from the browser's timing entries, the
// way web-vitals measures those: FCP as the frame after the page is committed, CLS by session
// windows, INP as the longest interaction (a view has far fewer than the 50 where it differs).
import type { VitalName } from "../src/shared/vitals";

type Record = (name: VitalName, value: number) => void;

/** Observes `type` (where the browser has it); the returned call hands over what is pending and stops. */
function observe<T extends PerformanceEntry>(
  type: string,
  handle: (entry: T) => void,
  options: PerformanceObserverInit = {},
): (() => void) | undefined {
  if (!PerformanceObserver.supportedEntryTypes?.includes(type)) return;
  const observer = new PerformanceObserver((list) =>
    list.getEntries().forEach((entry) => handle(entry as T)),
  );
  // Buffered: what happened between the click and the commit belongs to the new view too.
  observer.observe({ type, buffered: true, ...options });
  return () => {
    observer.takeRecords().forEach((entry) => handle(entry as T));
    observer.disconnect();
  };
}

interface LayoutShift extends PerformanceEntry {
  value: number;
  hadRecentInput: boolean;
}

/**
 * Measures the view begun at `start` (ms from the time origin), whose page is on screen now;
 * `record` gets each figure as it changes. The returned call records the last ones and stops.
 */
export function measureClientView(start: number, record: Record): () => void {
  requestAnimationFrame(() => requestAnimationFrame(() => record("fcp", performance.now() - start)));

  // CLS: the largest session window (shifts less than 1 s apart, 5 s at most), none after input.
  let cls = 0;
  let session = 0;
  let first = -Infinity;
  let last = -Infinity;
  const shifts = observe<LayoutShift>("layout-shift", (shift) => {
    if (shift.hadRecentInput || shift.startTime < start) return;
    if (shift.startTime - last > 1000 || shift.startTime - first > 5000) {
      session = 0;
      first = shift.startTime;
    }
    session += shift.value;
    last = shift.startTime;
    record("cls", (cls = Math.max(cls, session)));
  });
  if (shifts) record("cls", 0);

  // INP: interactions after the one that began the view (web-vitals' threshold, 40 ms).
  let inp = 0;
  const events = observe<PerformanceEventTiming>(
    "event",
    (event) => {
      if (!event.interactionId || event.startTime < start) return;
      record("inp", (inp = Math.max(inp, event.duration)));
    },
    { durationThreshold: 40 } as PerformanceObserverInit,
  );

  return () => {
    shifts?.();
    events?.();
  };
}
