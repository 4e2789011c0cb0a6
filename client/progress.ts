// The progress bar a navigation shows once it has taken longer than a moment.

/** Fast navigations never flash a bar; slower ones show it after this long. */
export const PROGRESS_DELAY_MS = 150;

let bar: HTMLElement | undefined;
let timer: ReturnType<typeof setTimeout> | undefined;

/** Starts (or restarts, for a newer navigation) the delay before the bar appears. */
export function startProgress(): void {
  clearTimeout(timer);
  timer = setTimeout(() => {
    // Outside React's tree on purpose: it must not wait for the transition it reports on.
    bar ??= Object.assign(document.createElement("div"), { className: "progress" });
    document.body.appendChild(bar);
  }, PROGRESS_DELAY_MS);
}

export function stopProgress(): void {
  clearTimeout(timer);
  bar?.remove();
}
