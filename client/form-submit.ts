// The browser half of the action protocol: posts a form with fetch and classifies the answer.
import {
  ACTION_HEADER,
  BUILD_HEADER,
  FORM_URLENCODED,
  JSON_MEDIA_TYPE,
  type ActionResponse,
  STATUS,
} from "../src/shared/protocol";
import type { SubmitOutcome } from "../src/shared/router-context";
import { keepBookmark, withBookmark } from "./bookmark";

/** The fields of `data` as a form body; files are left out (actions take strings). */
export function formBody(data: FormData | HTMLFormElement): URLSearchParams {
  const body = new URLSearchParams();
  for (const [name, value] of data instanceof FormData ? data : new FormData(data)) {
    if (typeof value === "string") body.append(name, value);
  }
  return body;
}

/** Posts `form` as the action `actionName`; `build` is the build the page was rendered with. */
export function submitForm(form: HTMLFormElement, actionName: string, build: string): Promise<SubmitOutcome> {
  return postAction(form.action, formBody(form), actionName, build);
}

/** Posts `body` to `url` as the action `actionName`: what a <Form> and a fetcher both send. */
export async function postAction(
  url: string,
  body: URLSearchParams,
  actionName: string,
  build: string,
): Promise<SubmitOutcome> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: withBookmark({
        [ACTION_HEADER]: actionName,
        [BUILD_HEADER]: build,
        Accept: JSON_MEDIA_TYPE,
        "Content-Type": FORM_URLENCODED,
      }),
      body,
    });
    keepBookmark(response, true);
  } catch {
    return {
      kind: "failed",
      message: "The server could not be reached. Check your connection and try again.",
    };
  }
  const answer = (await response.json().catch(() => null)) as ActionResponse | null;
  // An action's own refusal, whatever its 4xx (a 409 conflict too): the form shows it.
  if (answer?.ok === false && "fieldErrors" in answer) {
    return { kind: "invalid", fieldErrors: answer.fieldErrors, message: answer.message };
  }
  if (answer?.ok === false && "notFound" in answer) return { kind: "notFound", page: answer.page };
  if (response.status === STATUS.notFound || response.status === STATUS.conflict) return { kind: "reload" };
  if (answer?.ok === true) {
    return "redirect" in answer
      ? { kind: "redirect", location: answer.redirect }
      : { kind: "success", answer };
  }
  const error = answer && "error" in answer ? (answer.error as { digest?: string; message?: string }) : null;
  if (error?.digest) {
    return { kind: "failed", message: "Something went wrong, and nothing was saved.", digest: error.digest };
  }
  return { kind: "failed", message: error?.message ?? `Something went wrong (status ${response.status}).` };
}
