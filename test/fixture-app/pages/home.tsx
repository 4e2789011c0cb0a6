// The test app's home: links to its pages, and a control that proves hydration.
import { useState } from "react";
import type { PageProps } from "verge";

export const title = "verge";

const PAGES = [
  { href: "/twins", name: "Twins", about: "two pages that share a title" },
  { href: "/echo", name: "Echo", about: "a GET form whose input comes back in the page" },
  { href: "/slow", name: "Slow", about: "a section streamed after the shell" },
  { href: "/styled", name: "Styled", about: "a stylesheet, a CSS module, an image and Tailwind utilities" },
];

export default function Home(_: PageProps) {
  const [count, setCount] = useState(0);
  return (
    <>
      <h1>verge</h1>
      <p>A second app on the same runtime, with pages that exist only for tests:</p>
      <ul>
        {PAGES.map((entry) => (
          <li key={entry.href}>
            <a href={entry.href}>{entry.name}</a>: {entry.about}.
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
