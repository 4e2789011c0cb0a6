// Endpoint requests: a route-table line whose module answers each method with a Response. The
// guards first (method, same-site, declared size), then the module's Hono middleware (`use`), then
// the handler, through the edge cache when a GET endpoint exports `cache`.
import { HTTPException } from "hono/http-exception";
import { every } from "hono/combine";
import { MAX_ACTION_BODY_BYTES, STATUS } from "../shared/protocol";
import type { RouteMatch } from "../shared/match-route";
import type { RouteModule } from "../shared/route-module";
import {
  ENDPOINT_METHODS,
  type EndpointArgs,
  type EndpointHandler,
  type EndpointModule,
} from "../shared/endpoint";
import type { AppContext } from "./context";
import { HttpError } from "./errors";
import { assertSameSite, bodyTooLarge } from "./guards";
import { declaresOver } from "./refused-body";
import { cachedPageRequest, cachedUrl, policyOf } from "./cache-policy";
import { cachedAnswer } from "./page-cache";
import { pageEnv } from "./d1-session";
import { timed } from "./timings";
import type { ResolvedRoute } from "./load-page";
import { sentUrl, type RequestHandler } from "./request-handler";
import { SHARED_CONTEXT, type RequestContext } from "../shared/middleware";

/** Methods a browser sends from any page without asking: never refused as cross-site. */
const SAFE_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "OPTIONS"]);

/** The handler for `method` (HEAD: GET's), if the module exports one. */
function handlerOf(module: EndpointModule, method: string): EndpointHandler | undefined {
  const name = method === "HEAD" ? "GET" : method;
  const handler = (ENDPOINT_METHODS as readonly string[]).includes(name)
    ? module[name as keyof EndpointModule]
    : undefined;
  return typeof handler === "function" ? (handler as EndpointHandler) : undefined;
}

/** The methods the module takes, for `Allow`: its handlers', HEAD with GET, and OPTIONS (answered here). */
function allowOf(module: EndpointModule): string {
  const methods = ENDPOINT_METHODS.filter((method) => handlerOf(module, method));
  if (handlerOf(module, "GET")) methods.splice(1, 0, "HEAD" as never);
  return [...methods, "OPTIONS"].join(", ");
}

/** An endpoint's route: always resolved (request-kind.ts matched it to decide the kind). */
const moduleOf = (route: ResolvedRoute | null) => route!.module as EndpointModule;

export const endpointHandler: RequestHandler = {
  target: sentUrl,
  routed: true,
  limit: MAX_ACTION_BODY_BYTES,
  tooLarge: bodyTooLarge,
  // The refusals made before any of the module's code runs.
  guards(c, _url, route) {
    const request = c.req.raw;
    const module = moduleOf(route);
    if (!handlerOf(module, request.method) && request.method !== "OPTIONS") {
      throw new HttpError(STATUS.methodNotAllowed, "Method Not Allowed", {
        headers: { Allow: allowOf(module) },
      });
    }
    // A webhook (crossSite) is posted by another site's server: it verifies its sender itself.
    if (!SAFE_METHODS.has(request.method) && module.crossSite !== true) assertSameSite(request, c.env);
    if (declaresOver(request, MAX_ACTION_BODY_BYTES)) throw bodyTooLarge();
  },
  // Behind the app's and its layouts' middleware (a sign-in wall): the module's Hono middleware.
  answer: (c, _url, route) => withHono(c, moduleOf(route), () => handled(c, route!)),
};

async function handled(c: AppContext, route: ResolvedRoute): Promise<Response> {
  const endpoint = route.module as EndpointModule;
  const handler = handlerOf(endpoint, c.req.method);
  if (!handler)
    return new Response(null, { status: STATUS.noContent, headers: { Allow: allowOf(endpoint) } });
  const response = await cachedOrRun(c, endpoint, route.match, handler);
  if (c.req.method !== "HEAD" || response.body === null) return response;
  await response.body.cancel();
  return new Response(null, response);
}

/**
 * Runs the module's Hono middleware (`use`) in order around `answer`, by Hono's own compose: each
 * sees the request's context, may answer itself (cors's preflight), throw an HTTPException
 * (basic-auth's 401, answered as Hono answers it) or set headers on the answer below it.
 */
async function withHono(c: AppContext, module: EndpointModule, answer: () => Promise<Response>) {
  const use = module.use ?? [];
  try {
    if (use.length === 0) return await answer();
    await every(...use)(c, async () => {
      c.res = await answer();
    });
  } catch (error) {
    if (error instanceof HTTPException) return error.getResponse();
    throw error;
  }
  return c.res;
}

/** A GET of an endpoint with `cache`: its answer from the edge cache, by the pages' rules; else run. */
function cachedOrRun(
  c: AppContext,
  module: EndpointModule,
  match: RouteMatch<RouteModule>,
  handler: EndpointHandler,
): Promise<Response> {
  const request = c.req.raw;
  const url = new URL(request.url);
  const policy =
    request.method === "GET" || request.method === "HEAD" ? policyOf(module as RouteModule) : null;
  if (!policy) return run(c, handler, url, request, match);
  const route = { match, module: module as RouteModule, layouts: [] };
  return cachedAnswer(c, "endpoint", url, route, () => {
    // What every visitor shares: the declared query only, no header (cache-policy.ts), nor what
    // middleware learnt of this one.
    const kept = cachedUrl(url, policy);
    return run(c, handler, kept, cachedPageRequest(request, kept), match, SHARED_CONTEXT);
  });
}

/**
 * Calls the handler, as the `endpoint` phase. Its request's body is counted as it is read: past
 * 1 MiB the rest is cancelled unread and the answer is 413, whatever the handler made of the error.
 */
async function run(
  c: AppContext,
  handler: EndpointHandler,
  url: URL,
  request: Request,
  match: RouteMatch<RouteModule>,
  context: RequestContext = c.get("context") ?? SHARED_CONTEXT,
): Promise<Response> {
  let over = false;
  const args: EndpointArgs = {
    request: limited(request, () => (over = true)),
    url,
    params: match.params,
    env: pageEnv(c),
    ctx: c.executionCtx,
    context,
  };
  let response: unknown;
  try {
    response = await timed(c, "endpoint", () => handler(args));
  } catch (error) {
    throw over ? bodyTooLarge() : error;
  }
  if (over) {
    if (response instanceof Response) await response.body?.cancel();
    throw bodyTooLarge();
  }
  if (!(response instanceof Response)) {
    throw new TypeError(`The ${c.req.method} handler of "${match.route.path}" did not return a Response`);
  }
  // Its own copy: a fetch()'s answer has immutable headers, and the runtime adds its own.
  return new Response(response.body, response);
}

/** `request` with its body counted as read: past MAX_ACTION_BODY_BYTES it fails, the rest cancelled. */
function limited(request: Request, overflow: () => void): Request {
  if (request.body === null) return request;
  let total = 0;
  const counted = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      total += chunk.byteLength;
      if (total <= MAX_ACTION_BODY_BYTES) return controller.enqueue(chunk);
      overflow();
      controller.error(bodyTooLarge());
    },
  });
  // duplex: a streamed request body (the DOM lib's RequestInit lacks it).
  return new Request(request, { body: request.body.pipeThrough(counted), duplex: "half" } as RequestInit);
}
