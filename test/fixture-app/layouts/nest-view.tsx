// What the three nested test layouts render: a frame with its data and a counter (React state a
// client navigation must keep), and an error view that names the layout.
import { useState, type ReactNode } from "react";

export function Frame({ id, loads, children }: { id: string; loads: number; children: ReactNode }) {
  const [count, setCount] = useState(0);
  return (
    <section data-testid={`layout-${id}`} aria-label={`${id} layout`}>
      <p data-testid={`${id}-loads`}>
        {id} loaded {loads}
      </p>
      <button type="button" data-testid={`${id}-count`} onClick={() => setCount(count + 1)}>
        {id} count {count}
      </button>
      {children}
    </section>
  );
}

export function errorView(id: string) {
  return function ErrorView({ digest }: { digest?: string }) {
    return (
      <div role="alert" data-testid={`${id}-error`}>
        <p>{id} caught an error below it.</p>
        {digest ? (
          <p>
            Digest: <code data-testid="digest">{digest}</code>
          </p>
        ) : null}
      </div>
    );
  };
}
