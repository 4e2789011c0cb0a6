// /errors/loader: a loader that throws, so the server answers the fallback page with a digest.
import type { PageProps } from "verge";

export const title = "Loader error";

export const meta = {
  description: "A loader that throws on purpose: the server answers its fallback page, with a digest.",
};

export function loader(): never {
  throw new Error("Loader failed on purpose (/errors/loader)");
}

export default function LoaderError(_: PageProps) {
  return <h1>This never renders</h1>;
}
