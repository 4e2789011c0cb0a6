// /twins/two: one of two pages that share a title (see ../twins.tsx).
import type { PageProps } from "verge";
import { TWINS_TITLE, TwinPage, twinLoader, type TwinData } from "../twins";

export const title = TWINS_TITLE;
export const loader = twinLoader;

export default function TwinTwo(props: PageProps<TwinData>) {
  return <TwinPage name="two" other="one" {...props} />;
}
