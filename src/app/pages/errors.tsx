// Errors: ways to fail on purpose, to try every fallback and follow its digest.
import { useState } from "react";
import type { PageProps } from "verge";

export const title = "Errors";

export const meta = {
  description:
    "Ways to fail on purpose: a loader, a server render, a streamed section and a client render, each with its fallback and digest.",
};

const FAILURES = [
  { href: "/errors/loader", about: "the loader throws: the server-side fallback page, status 500" },
  { href: "/errors/render", about: "the page throws while rendering on the server: the same fallback" },
  {
    href: "/errors/stream",
    about: "a streamed section fails after the shell went out: status 200, an error view in place",
  },
];

function Bomb(): never {
  throw new Error("Client render failed on purpose (the throw-client button)");
}

export default function Errors(_: PageProps) {
  const [armed, setArmed] = useState(false);
  return (
    <>
      <h1>Errors</h1>
      <p>
        Each of these fails on purpose. The page you land on shows a digest; the same digest is in the
        request&apos;s log line and on the Sentry event.
      </p>
      <ul>
        {FAILURES.map((failure) => (
          <li key={failure.href}>
            <a href={failure.href}>{failure.href}</a>: {failure.about}.
          </li>
        ))}
      </ul>
      <p>
        <button type="button" data-testid="throw-client" onClick={() => setArmed(true)}>
          Throw during a client render
        </button>
      </p>
      {armed ? <Bomb /> : null}
    </>
  );
}
