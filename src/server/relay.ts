// The same-site relay for browser Sentry envelopes: checks the envelope's DSN against
// configuration and streams the body, byte for byte, to the ingest URL built from that config.
import { HttpError } from "./errors";
import { logField } from "./logger";
import { timed } from "./timings";
import { STATUS } from "../shared/protocol";
import {
  RETRY_AFTER_HEADER,
  SENTRY_FORWARDED_FOR_HEADER,
  SENTRY_RATE_LIMITS_HEADER,
} from "../shared/sentry-headers";
import { allowedDsn, envelopeUrl, parseDsn, type Dsn } from "./sentry-dsn";
import {
  countedBody,
  readFirstLine,
  readInflatedFirstLine,
  sendableBody,
  TooLargeError,
} from "./envelope-reader";
import { declaresOver, drainBody } from "./refused-body";
import { sentUrl, type RequestHandler } from "./request-handler";
import { isSameSite } from "./same-site";
import type { AppContext } from "./context";
import { isAddress, visitorAddress, withinVisitorLimit, type VisitorLimits } from "../shared/visitor-limit";
import { VITALS_HEADER, VITALS_KEY, type VitalsSummary } from "../shared/vitals";
import { checkedVitals } from "./vitals";
import { isVitalsEnvelope, MAX_VITALS_BYTES, readSmallBody } from "./vitals-envelope";

/** Largest envelope forwarded (the browser SDK's events are far smaller). */
export const MAX_ENVELOPE_BYTES = 1024 * 1024;
/** Longest envelope header line read. */
export const MAX_HEADER_BYTES = 64 * 1024;
export const DEFAULT_RELAY_TIMEOUT_MS = 5_000;
/** Seconds a visitor over the limit waits (the limiter's period). */
export const RELAY_RETRY_AFTER_S = 60;

const refuse = (status: number, message: string, headers?: Record<string, string>) =>
  new HttpError(status, message, { headers });
const tooLarge = () => refuse(STATUS.payloadTooLarge, "Envelope too large");

/** An event id as Sentry writes them; anything else the envelope says is not logged. */
const EVENT_ID = /^[0-9a-f]{32}$/i;

/** The configured DSN the envelope's header names, or the reason it is refused. */
async function envelopeTarget(
  c: AppContext,
  headerSource: ReadableStream<Uint8Array>,
  gzip: boolean,
): Promise<{ upstream: Dsn; eventId: string | null; vitals: VitalsSummary | null }> {
  let header: unknown;
  try {
    const line = await (gzip ? readInflatedFirstLine : readFirstLine)(headerSource, MAX_HEADER_BYTES);
    if (line === null) throw refuse(STATUS.badRequest, "Envelope header over 64 KiB");
    header = JSON.parse(line);
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw refuse(STATUS.badRequest, "Malformed envelope");
  }
  const dsnText = (header as { dsn?: unknown } | null)?.dsn;
  if (typeof header !== "object" || typeof dsnText !== "string") {
    throw refuse(STATUS.badRequest, "Envelope header has no dsn");
  }
  const dsn = parseDsn(dsnText);
  if (!dsn) throw refuse(STATUS.badRequest, "Envelope dsn is not a DSN");
  const upstream = allowedDsn(dsn, [c.env.SENTRY_DSN, c.env.SENTRY_RELAY_ALLOWED_DSNS]);
  if (!upstream) throw refuse(STATUS.forbidden, "DSN not allowed");
  const { event_id: eventId, [VITALS_KEY]: vitals } = header as Record<string, unknown>;
  return {
    upstream,
    eventId: typeof eventId === "string" && EVENT_ID.test(eventId) ? eventId : null,
    vitals: vitals === undefined ? null : checkedVitals(vitals, c.get("app").routes),
  };
}

/** Whether the post says it is a Web Vitals report (the collector marks it; checked when read). */
const markedVitals = (c: AppContext) => c.req.header(VITALS_HEADER) !== undefined;

/**
 * The limits a report counts against: Web Vitals have budgets of their own, so however many page
 * views report, error reports keep theirs (and a flood of errors leaves vitals theirs). Each has a
 * ceiling for the location: every network at once still cannot spend the whole Sentry quota.
 */
function budgetOf(c: AppContext): VisitorLimits {
  const { env } = c;
  return markedVitals(c)
    ? {
        visitor: [env.VITALS_LIMITER, "VITALS_LIMITER"],
        network: [env.VITALS_NETWORK_LIMITER, "VITALS_NETWORK_LIMITER"],
        everyone: [env.VITALS_GLOBAL_LIMITER, "VITALS_GLOBAL_LIMITER"],
      }
    : {
        visitor: [env.RELAY_LIMITER, "RELAY_LIMITER"],
        network: [env.RELAY_NETWORK_LIMITER, "RELAY_NETWORK_LIMITER"],
        everyone: [env.RELAY_GLOBAL_LIMITER, "RELAY_GLOBAL_LIMITER"],
      };
}

async function checkRateLimit(c: AppContext) {
  // Which budget refused a 429 is the first thing an operator asks.
  if (markedVitals(c)) logField(c, "budget", "vitals");
  const within = await withinVisitorLimit(c.req.raw, budgetOf(c));
  if (!within) {
    throw refuse(STATUS.tooManyRequests, "Too many reports", {
      [RETRY_AFTER_HEADER]: String(RELAY_RETRY_AFTER_S),
    });
  }
}

/** Where the relay sends an envelope, from its header line; the body is left for forwarding. */
interface ReadEnvelope {
  upstream: Dsn;
  eventId: string | null;
  /** A Web Vitals report's summary, checked (the header line carries it for this log line). */
  vitals: VitalsSummary | null;
  body: ReadableStream<Uint8Array>;
  gzip: boolean;
  counter: ReturnType<typeof countedBody>;
  /** The body's length when known (sent upstream as Content-Length); NaN when not. */
  length: number;
}

async function readEnvelope(c: AppContext, body: ReadableStream<Uint8Array>): Promise<ReadEnvelope> {
  const counter = countedBody(body, MAX_ENVELOPE_BYTES);
  const gzip = /^\s*gzip\s*$/i.test(c.req.header("Content-Encoding") ?? "");
  // One branch is read as far as the header line; the other goes upstream untouched.
  const [forHeader, forUpstream] = counter.stream.tee();
  try {
    const target = await envelopeTarget(c, forHeader, gzip);
    return {
      ...target,
      body: forUpstream,
      gzip,
      counter,
      length: Number(c.req.header("Content-Length") ?? NaN),
    };
  } catch (error) {
    // Refused half-read: the rest (at most the limit) is read and dropped before answering.
    await drainBody(forUpstream, MAX_ENVELOPE_BYTES);
    throw counter.count() > MAX_ENVELOPE_BYTES ? tooLarge() : error;
  }
}

/**
 * A marked vitals report, read whole: one vitals envelope (isVitalsEnvelope), plain, at most
 * MAX_VITALS_BYTES, or 400 (413 past the size), so nothing else is paid for by the vitals budget.
 */
async function readVitalsEnvelope(c: AppContext, body: ReadableStream<Uint8Array>): Promise<ReadEnvelope> {
  const notVitals = () => refuse(STATUS.badRequest, "Not a vitals report");
  const counter = countedBody(body, MAX_ENVELOPE_BYTES);
  const bytes = await readSmallBody(counter.stream, MAX_VITALS_BYTES, MAX_ENVELOPE_BYTES).catch(
    (error: unknown) => {
      // Past 1 MiB the count fails the read; a visitor who left mid-body sent no report.
      throw error instanceof TooLargeError ? tooLarge() : notVitals();
    },
  );
  if (bytes === null) throw tooLarge();
  // The collector sends text: a gzip body is not one of its reports.
  if (c.req.header("Content-Encoding") !== undefined) throw notVitals();
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw notVitals();
  }
  if (!isVitalsEnvelope(text)) throw notVitals();
  const target = await envelopeTarget(c, new Response(bytes).body!, false);
  return { ...target, body: new Response(bytes).body!, gzip: false, counter, length: bytes.byteLength };
}

async function forward(c: AppContext, envelope: ReadEnvelope, ip: string | null) {
  const headers = new Headers({
    "Content-Type": c.req.header("Content-Type") ?? "application/x-sentry-envelope",
  });
  if (envelope.gzip) headers.set("Content-Encoding", "gzip");
  // The visitor's address is theirs: Sentry gets it only if the operator says so, as the reporter.
  if (ip !== null && isAddress(ip) && c.env.SENTRY_SEND_IP)
    headers.set(SENTRY_FORWARDED_FOR_HEADER, ip.trim());
  const timeout = Number(c.env.SENTRY_RELAY_TIMEOUT_MS) || DEFAULT_RELAY_TIMEOUT_MS;
  const { counter, length: declared } = envelope;
  const body = sendableBody(envelope.body);
  try {
    return await timed(c, "relay", () =>
      fetch(envelopeUrl(envelope.upstream), {
        method: "POST",
        headers,
        // A declared length goes upstream too (not chunked); a body that differs from it fails.
        body: declared >= 0 ? body.stream.pipeThrough(new FixedLengthStream(declared)) : body.stream,
        redirect: "manual",
        // A body that fails midway (over the limit, or the visitor gone) fails the fetch this way.
        signal: AbortSignal.any([AbortSignal.timeout(timeout), counter.signal, body.signal]),
      }),
    );
  } catch (error) {
    if (error instanceof TooLargeError || counter.count() > MAX_ENVELOPE_BYTES) throw tooLarge();
    if (error instanceof DOMException && error.name === "TimeoutError") {
      throw refuse(STATUS.gatewayTimeout, "Sentry did not answer in time");
    }
    throw refuse(STATUS.badGateway, "Sentry is unreachable");
  } finally {
    logField(c, "bytes", counter.count());
  }
}

/** The checks made before the body is read; the body. */
async function admit(c: AppContext) {
  // Without a DSN the route does not exist, whatever the method.
  if (!parseDsn(c.env.SENTRY_DSN)) throw refuse(STATUS.notFound, "Not Found");
  if (c.req.method !== "POST") throw refuse(STATUS.methodNotAllowed, "Method Not Allowed", { Allow: "POST" });
  // Another site could make its visitors post here: it would spend the Sentry quota and their limit.
  if (!isSameSite(c.req.raw, c.env)) throw refuse(STATUS.forbidden, "Cross-site reports are not allowed");
  await checkRateLimit(c);
  if (declaresOver(c.req.raw, MAX_ENVELOPE_BYTES)) throw tooLarge();
  if (!c.req.raw.body) throw refuse(STATUS.badRequest, "Empty envelope");
  return c.req.raw.body;
}

export const relayHandler: RequestHandler<ReadableStream<Uint8Array>> = {
  target: sentUrl,
  // No route and no middleware: the relay is the runtime's own.
  routed: false,
  limit: MAX_ENVELOPE_BYTES,
  tooLarge,
  guards: admit,
  answer: (c, _url, _route, body) => relayResponse(c, body),
};

async function relayResponse(c: AppContext, body: ReadableStream<Uint8Array>): Promise<Response> {
  const ip = visitorAddress(c.req.raw);
  const envelope = await (markedVitals(c) ? readVitalsEnvelope : readEnvelope)(c, body);
  logField(c, "project", envelope.upstream.project);
  logField(c, "event_id", envelope.eventId);
  if (envelope.vitals) logField(c, "vitals", envelope.vitals);
  const upstream = await forward(c, envelope, ip);
  logField(c, "upstream_status", upstream.status);
  // A redirect is not followed, and not handed to the browser (which would follow it).
  if (upstream.status >= 300 && upstream.status < 400) {
    await upstream.body?.cancel();
    throw refuse(STATUS.badGateway, "Sentry answered with a redirect");
  }
  const answer: Record<string, string> = {};
  for (const name of ["Content-Type", RETRY_AFTER_HEADER, SENTRY_RATE_LIMITS_HEADER]) {
    const value = upstream.headers.get(name);
    if (value !== null) answer[name] = value;
  }
  return new Response(upstream.body, { status: upstream.status, headers: answer });
}
