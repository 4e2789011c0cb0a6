// /account: who is signed in, their guestbook entries, their sessions (each can be ended) and
// security events, and signing out (here, or on every device).
import * as v from "valibot";
import {
  action,
  invalid,
  redirect,
  STATUS,
  useLayoutData,
  type Actions,
  type LoaderArgs,
  type PageProps,
} from "verge";
import { clearedSessionCookie, nowSeconds, revokeSession } from "verge/server";
import { deviceName } from "../auth/device-name";
import { ACCOUNT_CACHE_CONTROL, SIGNED_OUT_HEADERS, signedIn, signedInSession } from "../auth/session.server";
import {
  endEverySession,
  endSession,
  listEvents,
  listSessions,
  sessionHandle,
  type SecurityEventKind,
} from "../db/account-security.server";
import { entriesByAuthor } from "../db/accounts.server";

const PATH = "/account";

// Its data is the account's: no cache keeps it, so Back after signing out cannot show it.
export const cacheControl = ACCOUNT_CACHE_CONTROL;

export const title = () => "Your account";

export async function loader({ env, context }: LoaderArgs<typeof PATH>) {
  const account = signedIn(context).id;
  const now = nowSeconds();
  const [entries, sessions, events] = await Promise.all([
    entriesByAuthor(env.DB, account),
    listSessions(env.DB, account, now),
    listEvents(env.DB, account, now),
  ]);
  return { entries, sessions, events, current: sessionHandle(signedInSession(context).id) };
}

/** Out, with the cookie and the browser's copies of this site's pages cleared, to `location`. */
const signedOut = (location = "/") =>
  redirect(location, { headers: [["Set-Cookie", clearedSessionCookie()], ...SIGNED_OUT_HEADERS] });

const SessionHandle = v.object({
  session: v.pipe(v.string("Which session?"), v.nonEmpty("Which session?"), v.maxLength(16)),
});

export const actions = {
  signOut: action(v.object({}), async ({ request, env }) => {
    await revokeSession(env.DB, request);
    return signedOut();
  }),
  // Ends one session (another device's): the account check is in the delete.
  endSession: action(SessionHandle, async ({ input, request, env, context }) => {
    const own = input.session === sessionHandle(signedInSession(context).id);
    const device = deviceName(request.headers.get("User-Agent"));
    const accountId = signedIn(context).id;
    const ended = await endSession(env.DB, { accountId, handle: input.session, device, now: nowSeconds() });
    if (ended === null) return invalid({}, { status: STATUS.notFound, message: "You have no such session." });
    return own ? signedOut() : { ended };
  }),
  // Says how many sessions it ended on the sign-in page it lands on.
  signOutEverywhere: action(v.object({}), async ({ request, env, context }) => {
    const device = deviceName(request.headers.get("User-Agent"));
    const accountId = signedIn(context).id;
    const ended = await endEverySession(env.DB, { accountId, device, now: nowSeconds() });
    return signedOut(`/sign-in?ended=${ended}`);
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
const whenUnix = (unix: number) => when(new Date(unix * 1000).toISOString());

/** What each security event says, before its detail. */
const EVENT_TEXT: Record<SecurityEventKind, string> = {
  "session-started": "Signed in",
  "passkey-added": "Passkey added",
  "passkey-removed": "Passkey removed",
  "session-ended": "Signed out",
  "signed-out-everywhere": "Signed out everywhere",
};

export default function Account({ data, actionData }: PageProps<typeof loader, typeof PATH, typeof actions>) {
  const { displayName } = useLayoutData("account");
  const ended = actionData && "ended" in actionData ? actionData.ended : null;
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
      <section aria-labelledby="sessions-heading">
        <h2 id="sessions-heading">Where you are signed in</h2>
        {actionData?.message || ended ? (
          <p role="status" className="form-message" data-testid="sessions-message">
            {ended ? `Signed out: ${ended}.` : actionData?.message}
          </p>
        ) : null}
        <ul className="entries" data-testid="sessions">
          {data.sessions.map((session) => (
            <li className="entry" key={session.handle} data-testid="session">
              <p className="entry-meta">
                <strong>{session.device}</strong>
                {session.handle === data.current ? " (This device)" : null}: signed in{" "}
                {whenUnix(session.startedAt)}, last used {whenUnix(session.lastUsedAt)}
              </p>
              {session.handle === data.current ? null : (
                <form method="post" action={PATH}>
                  <input type="hidden" name="_action" value="endSession" />
                  <input type="hidden" name="session" value={session.handle} />
                  <button type="submit">Sign this session out</button>
                </form>
              )}
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="events-heading">
        <h2 id="events-heading">Security events</h2>
        <ol className="entries" data-testid="security-events">
          {data.events.map((event, i) => (
            <li className="entry" key={i} data-testid="security-event">
              <time dateTime={new Date(event.at * 1000).toISOString()}>{whenUnix(event.at)}</time>{" "}
              {`${EVENT_TEXT[event.kind]}${event.detail ? `: ${event.detail}` : ""} (${event.device || "Unknown device"})`}
            </li>
          ))}
        </ol>
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
