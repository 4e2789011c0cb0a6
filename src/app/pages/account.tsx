// /account: who is signed in, their guestbook entries, and signing out (here, or on every device).
import * as v from "valibot";
import { action, redirect, useLayoutData, type Actions, type LoaderArgs, type PageProps } from "verge";
import { clearedSessionCookie, revokeAccountSessions, revokeSession } from "verge/server";
import { ACCOUNT_CACHE_CONTROL, SIGNED_OUT_HEADERS, signedIn } from "../auth/session.server";
import { entriesByAuthor } from "../db/accounts.server";

const PATH = "/account";

// Its data is the account's: no cache keeps it, so Back after signing out cannot show it.
export const cacheControl = ACCOUNT_CACHE_CONTROL;

export const title = () => "Your account";

export async function loader({ env, context }: LoaderArgs<typeof PATH>) {
  return { entries: await entriesByAuthor(env.DB, signedIn(context).id) };
}

/** Out, with the cookie and the browser's copies of this site's pages cleared, to the home page. */
const signedOut = () =>
  redirect("/", { headers: [["Set-Cookie", clearedSessionCookie()], ...SIGNED_OUT_HEADERS] });

export const actions = {
  signOut: action(v.object({}), async ({ request, env }) => {
    await revokeSession(env.DB, request);
    return signedOut();
  }),
  signOutEverywhere: action(v.object({}), async ({ env, context }) => {
    await revokeAccountSessions(env.DB, signedIn(context).id);
    return signedOut();
  }),
} satisfies Actions;

/**
 * A form that posts one action: plain HTML, the same with and without JavaScript (a post, then the
 * page it redirects to), so these pages add no form code to other pages' shared chunks.
 */
function ActionButton({ name, children }: { name: keyof typeof actions; children: string }) {
  return (
    <form method="post" action={PATH}>
      <input type="hidden" name="_action" value={name} />
      <button type="submit">{children}</button>
    </form>
  );
}

/** Minutes precision in UTC, as the guestbook shows its entries. */
const when = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

export default function Account({ data }: PageProps<typeof loader, typeof PATH, typeof actions>) {
  const { displayName } = useLayoutData("account");
  return (
    <>
      <h1>Your account</h1>
      <p>
        You are signed in as <strong>{displayName}</strong>. Manage the keys you sign in with on{" "}
        <a href="/account/passkeys">Passkeys</a>.
      </p>
      <section aria-labelledby="entries-heading">
        <h2 id="entries-heading">Your guestbook entries</h2>
        {data.entries.length === 0 ? (
          <p>
            None yet: <a href="/guestbook">sign the guestbook</a> while signed in.
          </p>
        ) : (
          <ol className="entries" data-testid="account-entries">
            {data.entries.map((entry) => (
              <li className="entry" key={entry.id}>
                <p className="entry-meta">
                  <time dateTime={entry.createdAt}>{when(entry.createdAt)}</time>
                </p>
                <p className="entry-message">{entry.message}</p>
              </li>
            ))}
          </ol>
        )}
      </section>
      <section aria-labelledby="sign-out-heading">
        <h2 id="sign-out-heading">Sign out</h2>
        <ActionButton name="signOut">Sign out</ActionButton>
        <p>Signs you out on this device. To sign out on every device where you are signed in:</p>
        <ActionButton name="signOutEverywhere">Sign out everywhere</ActionButton>
      </section>
    </>
  );
}
