// The browser half of the action protocol: posts a form with fetch and classifies the answer.
import {
  ACTION_HEADER,
  BUILD_HEADER,
  FORM_URLENCODED,
  JSON_MEDIA_TYPE,
  PAGE_DATA_SCRIPT_ID,
  STATUS,
  type ActionResponse,
  type ActionSuccess,
  type FieldErrors,
} from "./protocol";

export type SubmitOutcome =
  | { kind: "success"; answer: ActionSuccess }
  | { kind: "redirect"; location: string }
  | { kind: "invalid"; fieldErrors: FieldErrors }
  /** The page is from another build, or lost its action: load it afresh. */
  | { kind: "reload" }
  | { kind: "failed"; message: string; digest?: string };

let build: string | undefined;

/** The build this script belongs to: the one the document was rendered with. */
function clientBuild(): string {
  if (build === undefined) {
    const json = document.getElementById(PAGE_DATA_SCRIPT_ID)?.textContent ?? "{}";
    build = String((JSON.parse(json) as { build?: unknown }).build ?? "");
  }
  return build;
}

function formBody(form: HTMLFormElement): URLSearchParams {
  const body = new URLSearchParams();
  for (const [name, value] of new FormData(form)) {
    if (typeof value === "string") body.append(name, value);
  }
  return body;
}

export async function submitForm(form: HTMLFormElement, actionName: string): Promise<SubmitOutcome> {
  let response: Response;
  try {
    response = await fetch(form.action, {
      method: "POST",
      headers: {
        [ACTION_HEADER]: actionName,
        [BUILD_HEADER]: clientBuild(),
        Accept: JSON_MEDIA_TYPE,
        "Content-Type": FORM_URLENCODED,
      },
      body: formBody(form),
    });
  } catch {
    return {
      kind: "failed",
      message: "The server could not be reached. Check your connection and try again.",
    };
  }
  if (response.status === STATUS.notFound || response.status === STATUS.conflict) return { kind: "reload" };
  const answer = (await response.json().catch(() => null)) as ActionResponse | null;
  if (answer?.ok === true) {
    return "redirect" in answer
      ? { kind: "redirect", location: answer.redirect }
      : { kind: "success", answer };
  }
  if (answer && "fieldErrors" in answer) return { kind: "invalid", fieldErrors: answer.fieldErrors };
  const error = answer && "error" in answer ? (answer.error as { digest?: string; message?: string }) : null;
  if (error?.digest) {
    return { kind: "failed", message: "Something went wrong, and nothing was saved.", digest: error.digest };
  }
  return { kind: "failed", message: error?.message ?? `Something went wrong (status ${response.status}).` };
}
