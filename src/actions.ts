// Action requests: POST to the page's own URL. (Issue 4 implements the protocol.)
import { HttpError } from "./errors";
import { STATUS } from "./protocol";
import type { AppContext } from "./context";

export async function actionResponse(_c: AppContext): Promise<Response> {
  throw new HttpError(STATUS.methodNotAllowed, "Method Not Allowed", { headers: { Allow: "GET, HEAD" } });
}
