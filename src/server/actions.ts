// Action requests: POST to the page's own URL; guards first, then the named action, then
// a 303 (plain HTML form) or JSON with the revalidated page (JavaScript).
import {
  ACTION_FIELD,
  ACTION_HEADER,
  IDEMPOTENCY_FIELD,
  MAX_ACTION_BODY_BYTES,
  STATUS,
} from "../shared/protocol";
import type { ActionFailure, ActionSuccess, Params } from "../shared/protocol";
import { appendHeaders, unwrapData } from "../shared/answers";
import { HttpError } from "./errors";
import {
  assertDeclaredSize,
  assertSameBuild,
  assertSameSite,
  bodyType,
  formTooLarge,
  type BodyType,
} from "./guards";
import { readFields } from "./action-body";
import { loadPage, type ResolvedRoute } from "./load-page";
import { settleDeferred, settledVisitor } from "./deferred";
import { renderDocument } from "./document";
import { answerHeaders } from "./headers";
import { forgetPage } from "./page-cache";
import { jsonResponse, redirectResponse } from "./respond";
import { redirectAnswer } from "./redirects";
import { pageRequest, pageUrl, type RequestHandler } from "./request-handler";
import type { Action, Fields } from "../shared/route-module";
import { isRedirect, redirect } from "../shared/redirect";
import { isNotFound } from "../shared/not-found";
import { notFoundAnswer } from "./not-found-answer";
import { echoedValues, isInvalid } from "../shared/invalid";
import type { AppContext } from "./context";
import { pageEnv } from "./d1-session";
import { requestKind } from "./request-kind";
import { timed } from "./timings";
import { errorsWithoutSecrets, secretNames, withoutSecrets } from "../shared/secret-fields";

function unknownAction(script: boolean): HttpError {
  // With JavaScript this is usually version skew (a page from an older build): reload.
  return new HttpError(STATUS.notFound, "This page has no such action.", {
    body: script ? { reload: true } : undefined,
  });
}

/** The action `name` of `route`, or 404. */
function findAction(route: ResolvedRoute | null, name: string | undefined, script: boolean) {
  if (!route) throw unknownAction(script);
  const actions = route.module.actions ?? {};
  if (!name || !Object.hasOwn(actions, name)) throw unknownAction(script);
  return { action: actions[name]!, route };
}

async function run(c: AppContext, action: Action, url: URL, params: Params, fields: Fields) {
  try {
    const context = c.get("context")!;
    const args = { request: c.req.raw, url, params, env: pageEnv(c), ctx: c.executionCtx, context, fields };
    return await timed(c, "action", () => action(args));
  } catch (thrown) {
    if (isRedirect(thrown) || isNotFound(thrown)) return thrown;
    throw thrown;
  }
}

/** What the guards found: the body's type, and the action when a header names it. */
interface Admitted {
  type: BodyType;
  found: ReturnType<typeof findAction> | null;
}

export const actionHandler: RequestHandler<Admitted> = {
  target: pageUrl,
  routed: true,
  limit: MAX_ACTION_BODY_BYTES,
  tooLarge: formTooLarge,
  guards(c, _url, route) {
    const request = c.req.raw;
    // JavaScript callers (requestKind's `script`) get JSON; forms get redirects and pages.
    const { script } = requestKind(c);
    assertSameSite(request, c.env);
    if (script) assertSameBuild(c);
    assertDeclaredSize(request);
    const type = bodyType(request);
    // With JavaScript the name is known before the body: an unknown one is refused unread.
    const found = script ? findAction(route, request.headers.get(ACTION_HEADER)!, true) : null;
    return { type, found };
  },
  // Behind the middleware, once the request is admitted: its body is read, and its action runs.
  async answer(c, url, route, { type, found }) {
    const { script } = requestKind(c);
    const fields = await readFields(c.req.raw, type);
    const { action, route: page } = found ?? findAction(route, fields[ACTION_FIELD], false);
    const outcome = await run(c, action, url, page.match.params, fields);
    return answer(c, url, page, outcome, fields, script);
  },
};

/** The answer to an action that ran: its redirect, its refusal, or its success. */
async function answer(
  c: AppContext,
  url: URL,
  route: ResolvedRoute,
  outcome: unknown,
  fields: Fields,
  script: boolean,
): Promise<Response> {
  if (isNotFound(outcome)) return notFoundAnswer(c, url, route, route.layouts.length);
  // Done (or sent elsewhere): the page's cached answers in this location no longer hold.
  if (!isInvalid(outcome)) await forgetPage(c, url, route.module);
  if (isRedirect(outcome)) return redirectAnswer(c, outcome, url);
  if (isInvalid(outcome)) {
    const { fieldErrors, message, status, headers } = outcome;
    // A library's message may quote what it refused: never a secret's value.
    const secret = secretNames(fields, outcome.secret);
    const failure: ActionFailure = {
      ok: false,
      fieldErrors: errorsWithoutSecrets(fieldErrors, fields, secret),
      ...(message === undefined ? {} : { message: withoutSecrets(message, fields, secret) }),
      // Not the framework's fields, and never a password: the answer is not a place for one.
      values: echoedValues(fields, outcome, [ACTION_FIELD, IDEMPOTENCY_FIELD]),
    };
    if (script) return jsonResponse(failure, status, { ...answerHeaders("action"), ...headers });
    return rerender(c, url, route, failure, status, headers);
  }
  const { value, headers } = unwrapData(outcome);
  const response = script
    ? await revalidated(c, url, route, value ?? null, headers)
    : redirectResponse(url.pathname + url.search, STATUS.seeOther);
  appendHeaders(response.headers, headers);
  return response;
}

/** JavaScript success: the result and the page after the action, in one answer. */
async function revalidated(
  c: AppContext,
  url: URL,
  route: ResolvedRoute,
  result: unknown,
  headers: HeadersInit | undefined,
): Promise<Response> {
  let loaded: Awaited<ReturnType<typeof loadPage>>;
  try {
    loaded = await loadPage(c, url, () => pageRequest(c, url, headers), route);
  } catch (error) {
    // The mutation is done; only reloading the page failed. Saying "failed" would invite a
    // second submission, so report success and send the client to load the page itself.
    c.get("capture")(error);
    loaded = redirect(url.pathname + url.search);
  }
  if (isRedirect(loaded)) return redirectAnswer(c, loaded, url);
  const data = await settleDeferred(c, loaded.page.data);
  const own = await settledVisitor(c, loaded.visitor);
  const body: ActionSuccess = { ok: true, result, page: { ...loaded.page, data, ...own } };
  return jsonResponse(body, STATUS.ok, answerHeaders("action"));
}

/** Plain-form refusal: the page again, with the action's status, the errors and what was typed. */
async function rerender(
  c: AppContext,
  url: URL,
  route: ResolvedRoute,
  failure: ActionFailure,
  status: number,
  headers: Record<string, string>,
): Promise<Response> {
  const loaded = await loadPage(c, url, () => pageRequest(c, url, headers), route);
  if (isRedirect(loaded)) return redirectAnswer(c, loaded, url);
  return renderDocument(c, { ...loaded, page: { ...loaded.page, status, actionData: failure } }, headers);
}
