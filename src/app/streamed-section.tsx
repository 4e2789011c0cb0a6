// A page section whose content streams in after the shell: its heading at once, then `fallback`
// until what `children` awaits has arrived (the slow page's and the failing stream's sections).
import { Suspense, type ReactNode } from "react";

export function StreamedSection(props: {
  id: string;
  heading: string;
  fallback: ReactNode;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={props.id}>
      <h2 id={props.id}>{props.heading}</h2>
      <Suspense fallback={props.fallback}>{props.children}</Suspense>
    </section>
  );
}
