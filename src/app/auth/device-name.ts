// A coarse name for the device a session was signed in on ("Firefox on Windows"), from its
// User-Agent: enough for its owner to tell their sessions apart, never the header itself.

/** Browsers, most specific first: Edge and Opera say "Chrome" too, Chrome says "Safari". */
const BROWSERS: [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\//, "Edge"],
  [/\b(?:OPR|Opera)\//, "Opera"],
  [/\b(?:Firefox|FxiOS)\//, "Firefox"],
  [/\bSamsungBrowser\//, "Samsung Internet"],
  [/\b(?:Chrome|CriOS|HeadlessChrome|Chromium)\//, "Chrome"],
  [/\bSafari\//, "Safari"],
];

/** Systems, most specific first: iPhones say "like Mac OS X", Android says "Linux". */
const SYSTEMS: [RegExp, string][] = [
  [/\biPhone\b/, "iPhone"],
  [/\biPad\b/, "iPad"],
  [/\bAndroid\b/, "Android"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bWindows\b/, "Windows"],
  [/\bMac OS X\b|\bMacintosh\b/, "macOS"],
  [/\bLinux\b/, "Linux"],
];

const first = (userAgent: string, known: [RegExp, string][]) =>
  known.find(([pattern]) => pattern.test(userAgent))?.[1];

/** "Browser on System", or as much of it as the User-Agent says; "Unknown device" without either. */
export function deviceName(userAgent: string | null): string {
  const text = (userAgent ?? "").slice(0, 1000);
  const browser = first(text, BROWSERS);
  const system = first(text, SYSTEMS);
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? "Unknown device";
}
