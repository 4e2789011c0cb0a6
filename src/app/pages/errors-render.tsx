// /errors/render: a page that throws while rendering, before the shell can be sent.
import type { PageProps } from "verge";

export const title = "Render error";

export const meta = {
  description:
    "A page that throws on purpose while rendering on the server: the fallback page, with a digest.",
};

export default function RenderError(_: PageProps): never {
  throw new Error("Render failed on purpose (/errors/render)");
}
