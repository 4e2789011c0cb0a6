// Home: the way into every example page, and a small control that proves hydration.
import { useState } from "react";
import type { CachePolicy, PageProps } from "verge";

export const title = "verge";

/** The same for every visitor: served from the edge cache, restamped with each answer's nonce. */
export const cache: CachePolicy = { maxAge: 60, staleWhileRevalidate: 300 };

export const meta = {
  description:
    "verge, a React application on Cloudflare Workers: example pages for streaming, forms that work without JavaScript, and error fallbacks.",
};

const EXAMPLES = [
  {
    href: "/guestbook",
    name: "Guestbook",
    about: "entries stored in D1, a form that works without JavaScript",
  },
  {
    href: "/slow",
    name: "Slow",
    about: "the shell at once, a slow section streamed later in the same response",
  },
  {
    href: "/errors",
    name: "Errors",
    about: "ways to fail on purpose, to see the fallbacks and their digests",
  },
];

export default function Home(_: PageProps) {
  const [count, setCount] = useState(0);
  return (
    <>
      <h1>verge</h1>
      <p>A React application on Cloudflare Workers. The example pages exercise every part of it:</p>
      <ul className="examples">
        {EXAMPLES.map((example) => (
          <li key={example.href}>
            <a href={example.href}>{example.name}</a>: {example.about}.
          </li>
        ))}
      </ul>
      <p>
        <button type="button" onClick={() => setCount((n) => n + 1)} data-testid="counter">
          Clicked {count} {count === 1 ? "time" : "times"}
        </button>
      </p>
    </>
  );
}
