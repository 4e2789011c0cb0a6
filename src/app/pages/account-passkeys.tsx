// /account/passkeys: the keys the visitor signs in with: rename one, remove one (never the last),
// add one (another device: its script loads only here and on /sign-in). Adding or removing one
// needs a fresh proof with a passkey ("Confirm with a passkey"), not the session cookie alone.
import * as v from "valibot";
import { action, invalid, STATUS, type Actions, type LoaderArgs, type PageProps } from "verge";
import { nowSeconds } from "verge/server";
import { deviceName } from "../auth/device-name";
import {
  ACCOUNT_CACHE_CONTROL,
  freshlyProved,
  PROOF_NEEDED,
  PROOF_TTL_S,
  signedIn,
  signedInSession,
} from "../auth/session.server";
import { supportNote, usePasskey } from "../auth/use-passkey";
import { recordEvent } from "../db/account-security.server";
import { listPasskeys, removePasskey, renamePasskey } from "../db/accounts.server";
import { textField } from "../text-field";

const PATH = "/account/passkeys";

// Its data is the account's: no cache keeps it, so Back after signing out cannot show it.
export const cacheControl = ACCOUNT_CACHE_CONTROL;

export const title = () => "Passkeys";

export async function loader({ env, context }: LoaderArgs<typeof PATH>) {
  const passkeys = await listPasskeys(env.DB, signedIn(context).id);
  const { provedAt } = signedInSession(context);
  return {
    passkeys: passkeys.map(({ id, name, createdAt, lastUsedAt }) => ({ id, name, createdAt, lastUsedAt })),
    /** Until when this session may add or remove a passkey (Unix seconds), or null: prove first. */
    provedUntil: freshlyProved(context, nowSeconds()) ? provedAt! + PROOF_TTL_S : null,
  };
}

const PasskeyId = v.pipe(v.string("Which passkey?"), v.nonEmpty("Which passkey?"), v.maxLength(1400));
const RenameSchema = v.object({ id: PasskeyId, name: textField({ label: "Name", max: 60 }) });
const RemoveSchema = v.object({ id: PasskeyId });

const NO_SUCH = "You have no such passkey.";

export const actions = {
  rename: action(RenameSchema, async ({ input, env, context }) => {
    const renamed = await renamePasskey(env.DB, signedIn(context).id, input.id, input.name);
    if (!renamed) return invalid({}, { status: STATUS.notFound, message: NO_SUCH });
    return { renamed: input.name };
  }),
  remove: action(RemoveSchema, async ({ input, request, env, context }) => {
    const now = nowSeconds();
    // A stolen cookie must not remove the owner's passkey: without a fresh proof, nothing is written.
    if (!freshlyProved(context, now)) return invalid({}, { status: STATUS.forbidden, message: PROOF_NEEDED });
    const account = signedIn(context).id;
    const passkey = (await listPasskeys(env.DB, account)).find((key) => key.id === input.id);
    if (!passkey) return invalid({}, { status: STATUS.notFound, message: NO_SUCH });
    if (await removePasskey(env.DB, account, input.id)) {
      const device = deviceName(request.headers.get("User-Agent"));
      await recordEvent(env.DB, account, { kind: "passkey-removed", at: now, device, detail: passkey.name });
      return { removed: true };
    }
    return invalid(
      {},
      {
        status: STATUS.conflict,
        message: "That is your last passkey: add another before you remove it, or you could not sign in.",
      },
    );
  }),
} satisfies Actions;

const day = (iso: string | null) => (iso ? iso.slice(0, 10) : "never");
/** Hours and minutes in UTC, as the account page shows its times. */
const clock = (unix: number) => `${new Date(unix * 1000).toISOString().slice(11, 16)} UTC`;

export default function Passkeys({
  data,
  actionData,
}: PageProps<typeof loader, typeof PATH, typeof actions>) {
  const passkey = usePasskey(PATH);
  const note = supportNote(passkey.support);
  return (
    <>
      <h1>Passkeys</h1>
      {actionData?.message ? (
        <p role="alert" className="form-message" data-testid="passkeys-message">
          {actionData.message}
        </p>
      ) : null}
      <section aria-labelledby="proof-heading">
        <h2 id="proof-heading">Confirm it&apos;s you</h2>
        <p data-testid="proof-status">
          {data.provedUntil
            ? `Confirmed: you can add or remove passkeys until ${clock(data.provedUntil)}.`
            : "Adding or removing a passkey needs a fresh check with one you have: it lasts five minutes."}
        </p>
        <button type="button" disabled={!passkey.ready} onClick={() => void passkey.run("authenticate", {})}>
          Confirm with a passkey
        </button>
      </section>
      <ul className="entries" data-testid="passkeys">
        {data.passkeys.map((key) => (
          <li className="entry" key={key.id} data-testid="passkey">
            <p className="entry-meta">
              <strong data-testid="passkey-name">{key.name}</strong> added {day(key.createdAt)}, last used{" "}
              {day(key.lastUsedAt)}
            </p>
            {/* Plain forms: the same with and without JavaScript (a post, then this page again). */}
            <form method="post" action={PATH}>
              <input type="hidden" name="_action" value="rename" />
              <input type="hidden" name="id" value={key.id} />
              <label htmlFor={`name-${key.id}`}>New name</label>{" "}
              <input id={`name-${key.id}`} name="name" required maxLength={60} defaultValue={key.name} />{" "}
              <button type="submit">Rename</button>
            </form>
            <form method="post" action={PATH}>
              <input type="hidden" name="_action" value="remove" />
              <input type="hidden" name="id" value={key.id} />
              <button type="submit">Remove</button>
            </form>
          </li>
        ))}
      </ul>
      <section aria-labelledby="add-heading">
        <h2 id="add-heading">Another device</h2>
        {note ? <p data-testid="passkey-note">{note}</p> : null}
        {passkey.error ? <p role="alert">{passkey.error}</p> : null}
        <button type="button" disabled={!passkey.ready} onClick={() => void passkey.run("register", {})}>
          Add a passkey
        </button>
      </section>
    </>
  );
}
