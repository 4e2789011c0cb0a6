// A visitor of the worker under test, in workerd: its address, its cookie jar, and the requests a
// browser and the page's script send (documents, page data, actions, plain form posts, endpoints).
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import clientManifest from "virtual:verge/manifest";
import {
  ACTION_HEADER,
  BUILD_HEADER,
  JSON_MEDIA_TYPE,
  PAGE_DATA_HEADER,
  PAGE_DATA_PARAM,
} from "../shared/protocol";
import { CONNECTING_IP_HEADER } from "../shared/visitor-limit";
import { cookieJar } from "./cookies";
import { newRay, noteRay, recordLogLines } from "./server-log";
import { signIn, signUp, type Account, type SignInOptions } from "./sign-in";
import type { SoftAuthenticator } from "./soft-authenticator";

/** How requests reach the worker: a fetch of a full URL (e.g. an app's `fetch` of a test's own). */
export type Send = (url: string, init: RequestInit) => Promise<Response>;

export interface VisitorOptions {
  /** The worker entry to call (its default export); the project's own worker (`main`) if unset. */
  worker?: {
    fetch: (request: Request, env: Cloudflare.Env, ctx: ExecutionContext) => Response | Promise<Response>;
  };
  /** With `worker`: bindings and vars over the test's own env (e.g. a var a test sets). */
  env?: Partial<Cloudflare.Env>;
  /** Or any fetch to send its requests through. */
  fetch?: Send;
  /** The site's origin, `http://localhost` if unset. */
  origin?: string;
  /** Its address (CF-Connecting-IP): an IPv6 address of a /64 of its own if unset. */
  ip?: string;
  /** The Cookie header it starts with (e.g. a session token it keeps after signing out). */
  cookie?: string;
  /** The build its pages were rendered with (X-Build): the worker's own if unset. */
  build?: string;
}

/** Headers as a record: what a test adds to or overrides in a request. */
type Init = Omit<RequestInit, "headers"> & { headers?: Record<string, string> };
/** A form's fields: by name, or in order as pairs when a name repeats (as a form's inputs may). */
type Fields = Record<string, string> | URLSearchParams | [string, string][];

export interface Visitor {
  readonly origin: string;
  readonly ip: string;
  /** The Cookie header it sends now (its jar: every Set-Cookie it was answered, as a browser keeps). */
  readonly cookie: string;
  /** Its cookies by name (`name=value`), to read or change. */
  readonly cookies: Map<string, string>;
  /** Any request, with its address, its cookies and a ray of its own; redirects are not followed. */
  fetch(path: string, init?: Init): Promise<Response>;
  /** A document GET, as a link or the address bar asks. */
  get(path: string, init?: Init): Promise<Response>;
  /** Page data, as the page's script asks on a client navigation (`_data`, X-Page-Data, X-Build). */
  data(path: string, init?: Init): Promise<Response>;
  /** The action `action`, as the page's script posts a `<Form>` (X-Action, X-Build, a JSON answer). */
  action(path: string, action: string, fields?: Fields, init?: Init): Promise<Response>;
  /** A plain HTML form post (no JavaScript): `fields` name the action in `_action`, as `<Form>` does. */
  form(path: string, fields: Fields, init?: Init): Promise<Response>;
  /** A same-site JSON post, as a page's script calls an endpoint. */
  json(path: string, body: unknown, init?: Init): Promise<Response>;
  /** Creates an account with a new soft passkey (the example's /sign-in endpoints); signed in after. */
  signUp(name: string, options?: SignInOptions): Promise<Account>;
  /** Signs in with a passkey of an account; the verify answer (its session is then in the jar). */
  signIn(authenticator: SoftAuthenticator, options?: SignInOptions): Promise<Response>;
}

/** A random IPv6 /64 prefix: the site's limits count a visitor by its network. */
const network = () => `fd00:${crypto.randomUUID().slice(0, 4)}:${crypto.randomUUID().slice(0, 4)}:1`;

function sender(options: VisitorOptions): Send {
  if (options.fetch) return options.fetch;
  const worker = options.worker;
  if (!worker) return (url, init) => exports.default.fetch(url, init);
  return async (url, init) => {
    const ctx = createExecutionContext();
    const response = await worker.fetch(new Request(url, init), { ...env, ...options.env }, ctx);
    void waitOnExecutionContext(ctx);
    return response;
  };
}

/** A new visitor: anonymous unless `cookie` names a session, with an address of its own. */
export function visitor(options: VisitorOptions = {}): Visitor {
  recordLogLines();
  const origin = options.origin ?? "http://localhost";
  const ip = options.ip ?? `${network()}::${crypto.randomUUID().slice(0, 4)}`;
  const build = options.build ?? clientManifest.build;
  const send = sender(options);
  const jar = cookieJar(options.cookie);
  const sameSite = { Origin: origin, "Sec-Fetch-Site": "same-origin" };
  const urlencoded = "application/x-www-form-urlencoded";

  const self: Visitor = {
    origin,
    ip,
    get cookie() {
      return jar.header();
    },
    cookies: jar.cookies,
    async fetch(path, init = {}) {
      // Set in order, so a header the test names wins whatever its case.
      const headers = new Headers({ [CONNECTING_IP_HEADER]: ip, "cf-ray": newRay() });
      if (jar.header()) headers.set("Cookie", jar.header());
      for (const [name, value] of Object.entries(init.headers ?? {})) headers.set(name, value);
      // A plain record: a `fetch` the test gives (to add a User-Agent, say) may spread it.
      const sent = Object.fromEntries(headers);
      const response = await send(new URL(path, origin).href, { redirect: "manual", ...init, headers: sent });
      jar.keep(response);
      noteRay(response, headers.get("cf-ray")!);
      return response;
    },
    get: (path, init = {}) => self.fetch(path, init),
    data(path, init = {}) {
      const url = new URL(path, origin);
      if (!url.searchParams.has(PAGE_DATA_PARAM)) url.searchParams.set(PAGE_DATA_PARAM, "1");
      const headers = { [PAGE_DATA_HEADER]: "1", [BUILD_HEADER]: build, ...init.headers };
      return self.fetch(url.pathname + url.search, { ...init, headers });
    },
    action(path, action, fields = {}, init = {}) {
      const headers = {
        [ACTION_HEADER]: action,
        [BUILD_HEADER]: build,
        Accept: JSON_MEDIA_TYPE,
        "Content-Type": urlencoded,
        ...sameSite,
        ...init.headers,
      };
      return self.fetch(path, {
        method: "POST",
        body: new URLSearchParams(fields).toString(),
        ...init,
        headers,
      });
    },
    form(path, fields, init = {}) {
      const headers = { "Content-Type": urlencoded, ...sameSite, ...init.headers };
      return self.fetch(path, {
        method: "POST",
        body: new URLSearchParams(fields).toString(),
        ...init,
        headers,
      });
    },
    json(path, body, init = {}) {
      const headers = { "Content-Type": "application/json", ...sameSite, ...init.headers };
      return self.fetch(path, { method: "POST", body: JSON.stringify(body), ...init, headers });
    },
    signUp: (name, signInOptions) => signUp(self, name, signInOptions),
    signIn: (authenticator, signInOptions) => signIn(self, authenticator, signInOptions),
  };
  return self;
}
