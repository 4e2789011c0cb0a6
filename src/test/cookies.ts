// A visitor's cookie jar, kept as a browser keeps one: each answer's Set-Cookie lines add, replace
// or remove cookies, and the jar is sent back as one Cookie header.

/** The `name=value` of each `Set-Cookie` of an answer, by name. */
export function cookiesOf(response: Response): Record<string, string> {
  return Object.fromEntries(
    response.headers.getSetCookie().map((line) => {
      const pair = line.split(";")[0]!;
      return [pair.slice(0, pair.indexOf("=")), pair];
    }),
  );
}

/** Whether a `Set-Cookie` line removes its cookie: `Max-Age` of 0 or less, or an `Expires` past. */
function removes(line: string): boolean {
  const maxAge = /;\s*max-age=(-?\d+)/i.exec(line);
  if (maxAge) return Number(maxAge[1]) <= 0;
  const expires = /;\s*expires=([^;]+)/i.exec(line);
  return expires !== null && Date.parse(expires[1]!) <= Date.now();
}

export interface CookieJar {
  /** The `name=value` pairs held now, by name. */
  readonly cookies: Map<string, string>;
  /** The Cookie header a browser would send: every pair held, or "" when none. */
  header(): string;
  /** Takes an answer's Set-Cookie lines as a browser does. */
  keep(response: Response): void;
}

/** A jar holding the cookies of a `Cookie` header to start with (e.g. a session of another visitor). */
export function cookieJar(initial = ""): CookieJar {
  const cookies = new Map<string, string>();
  for (const pair of initial.split(";").map((part) => part.trim())) {
    if (pair.includes("=")) cookies.set(pair.slice(0, pair.indexOf("=")), pair);
  }
  return {
    cookies,
    header: () => [...cookies.values()].join("; "),
    keep(response) {
      for (const line of response.headers.getSetCookie()) {
        const pair = line.split(";")[0]!.trim();
        const name = pair.slice(0, pair.indexOf("="));
        if (removes(line)) cookies.delete(name);
        else cookies.set(name, pair);
      }
    },
  };
}
