// Sentry DSNs: parsing, the ingest URL they name, and matching an envelope's DSN against configuration.

export interface Dsn {
  protocol: string;
  /** host[:port] */
  host: string;
  /** Path before the project id, without a trailing slash ("" for most DSNs). */
  path: string;
  project: string;
  publicKey: string;
}

/** Parses `scheme://key@host[:port][/path]/project`; null when it is not a DSN. */
export function parseDsn(text: string | undefined | null): Dsn | null {
  if (!text) return null;
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return null;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  const segments = url.pathname.split("/");
  const project = segments.pop() ?? "";
  if (!/^\d+$/.test(project) || !url.username) return null;
  return {
    protocol: url.protocol,
    host: url.host,
    path: segments.join("/"),
    project,
    publicKey: url.username,
  };
}

/** SENTRY_DSN as last parsed: it is fixed per isolate, and every HTML answer asks for it. */
let configured: { text: string | undefined; dsn: Dsn | null } | undefined;

/** The configured DSN (SENTRY_DSN), parsed once per isolate while its text stays the same. */
export function configuredDsn(env: { SENTRY_DSN?: string } | undefined): Dsn | null {
  const text = env?.SENTRY_DSN;
  if (configured === undefined || configured.text !== text) configured = { text, dsn: parseDsn(text) };
  return configured.dsn;
}

/** The ingest endpoint, built only from a configured DSN's own parts. */
export function envelopeUrl(dsn: Dsn): string {
  return `${dsn.protocol}//${dsn.host}${dsn.path}/api/${dsn.project}/envelope/`;
}

/** The DSN as a browser may see it: without any secret key (legacy `key:secret@` DSNs). */
export function publicDsn(dsn: Dsn): string {
  return `${dsn.protocol}//${dsn.publicKey}@${dsn.host}${dsn.path}/${dsn.project}`;
}

/** The configured DSN (SENTRY_DSN, then the allowlist) with the same host and project, if any. */
export function allowedDsn(envelopeDsn: Dsn, configured: (string | undefined)[]): Dsn | null {
  for (const text of configured.flatMap((value) => (value ?? "").split(","))) {
    const dsn = parseDsn(text);
    if (dsn && dsn.host === envelopeDsn.host && dsn.project === envelopeDsn.project) return dsn;
  }
  return null;
}
