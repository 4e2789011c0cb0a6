// /errors/render: a page that throws while rendering, before the shell can be sent.
import type { PageProps } from "../../shared/route-module";

export const title = "Render error";

export default function RenderError(_: PageProps): never {
  throw new Error("Render failed on purpose (/errors/render)");
}
