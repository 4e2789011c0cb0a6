// /sign-in: create an account (a display name and a new passkey) or sign in with a passkey. Passkeys
// need JavaScript: until the page's script runs, it says so and its buttons are off.
import type { FormEvent } from "react";
import type { LoaderArgs, PageProps } from "verge";
import { nextPath } from "../auth/ceremony.server";
import { supportNote, usePasskey } from "../auth/use-passkey";

const PATH = "/sign-in";

export const title = () => "Sign in";
export const meta = { robots: "noindex" };

export const loader = ({ url }: LoaderArgs<typeof PATH>) => ({
  next: nextPath(url.searchParams.get("next")),
  // "Sign out everywhere" lands here saying how many sessions it ended.
  ended: /^\d{1,4}$/.test(url.searchParams.get("ended") ?? "") ? Number(url.searchParams.get("ended")) : null,
});

export default function SignIn({ data }: PageProps<typeof loader, typeof PATH>) {
  const passkey = usePasskey(PATH);
  const note = supportNote(passkey.support);
  const create = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void passkey.run("register", { name: new FormData(event.currentTarget).get("name"), next: data.next });
  };
  return (
    <>
      <h1>Sign in</h1>
      {data.ended !== null ? (
        <p role="status" data-testid="signed-out-everywhere">
          {`Signed out everywhere: ${data.ended === 1 ? "1 session" : `${data.ended} sessions`} ended.`}
        </p>
      ) : null}
      {note ? <p data-testid="passkey-note">{note}</p> : null}
      {passkey.error ? (
        <p role="alert" className="form-message">
          {passkey.error}
        </p>
      ) : null}
      <section aria-labelledby="sign-in-heading">
        <h2 id="sign-in-heading">With a passkey you have</h2>
        <button
          type="button"
          disabled={!passkey.ready}
          onClick={() => void passkey.run("authenticate", { next: data.next })}
        >
          Sign in with a passkey
        </button>
      </section>
      <section aria-labelledby="create-heading">
        <h2 id="create-heading">New here</h2>
        <form onSubmit={create}>
          <label htmlFor="sign-in-name">Display name</label>
          <input id="sign-in-name" name="name" required maxLength={60} autoComplete="nickname" />
          <button type="submit" disabled={!passkey.ready}>
            Create account
          </button>
        </form>
      </section>
    </>
  );
}
