// Guestbook: entries from D1, newest first, 20 a page; a form that signs it, with or without JavaScript.
// The entries are the same for everyone: a shell kept in the edge cache. The form's idempotency
// key, the signed-in visitor's name and the delete buttons of their own entries are each visitor's
// own: holes, filled on every request by the per-visitor loader.
import { lazy, Suspense, useOptimistic } from "react";
import { useFormStatus } from "react-dom";
import {
  addEntry,
  listEntries,
  ownEntriesOnPage,
  ownEntryIds,
  pageNumber,
  pagesOf,
  readOwnEntries,
} from "../db/guestbook.server";
import { deleteOwnEntry } from "../db/accounts.server";
import { accountKey, visitorReadKey, withVisitorReading, type VisitorSelect } from "../auth/session.server";
import * as v from "valibot";
import {
  action,
  Await,
  formFor,
  href,
  IDEMPOTENCY_FIELD,
  invalid,
  newIdempotencyKey,
  redirect,
  STATUS,
  withinVisitorLimit,
  type Actions,
  type Data,
  type LoaderArgs,
  type PageProps,
} from "verge";
import { textField } from "../text-field";

const DeleteEntry = lazy(() => import("../guestbook-delete"));

const PATH = "/guestbook";
const NAME_MAX = 60;
const MESSAGE_MAX = 500;
/** The SIGN_LIMITER's period (wrangler.toml): how long a visitor over the limit waits. */
const SIGN_PERIOD_S = 60;

export const title = (data: Data<typeof loader>) =>
  data.page > 1 ? `Guestbook (page ${data.page})` : "Guestbook";

// The first page is /guestbook itself (its canonical address): no `page` in its query.
const pageHref = (page: number) => href(PATH, {}, { page: page === 1 ? null : page });

export const meta = (data: Data<typeof loader>) => ({
  description:
    data.page > 1
      ? `What visitors wrote in verge's guestbook, page ${data.page} of ${data.pages}.`
      : "Sign verge's guestbook and read what visitors wrote, newest first: entries stored in D1, a form that works without JavaScript.",
  // Each page of entries is its own page to a search engine: its address keeps the page number.
  canonical: pageHref(data.page),
});

export async function loader({ url, env }: LoaderArgs<typeof PATH>) {
  const param = url.searchParams.get("page");
  // Anything but a plain positive number (abc, 0, -1, 1.5, 01) goes to the first page.
  const page = param === null ? 1 : pageNumber(param);
  if (page === null) return redirect(PATH);
  const { entries, total } = await listEntries(env.DB, page);
  const pages = pagesOf(total);
  if (page > pages) return redirect(pageHref(pages));
  return { entries, page, pages, total };
}

/**
 * Who the visitor is, for the loaders and actions below, and on a GET which entries of this page
 * are theirs: one D1 query together (none without a session cookie). An action reads no entries
 * there: its answer's `visitorLoader` reads them after the action wrote.
 */
export const middleware = [
  withVisitorReading(({ request, url }): VisitorSelect =>
    request.method === "GET" ? { own: ownEntriesOnPage(pageOf(url)) } : {},
  ),
];

/** The page a URL asks for; a malformed one reads as page 1 here (the loader redirects it there). */
const pageOf = (url: URL) => pageNumber(url.searchParams.get("page") ?? "1") ?? 1;

/**
 * Each visitor's own, on every request: the key that makes a resubmitted form apply once, and for
 * a signed-in visitor their name and which entries are theirs (never in the shared shell).
 */
export async function visitorLoader({ env, url, context }: LoaderArgs<typeof PATH>) {
  const account = context.find(accountKey) ?? null;
  const read = context.find(visitorReadKey) ?? {};
  // An action's answer: the session's read had none (the action was still to write).
  const own = !account
    ? []
    : "own" in read
      ? ownEntryIds(read.own)
      : await readOwnEntries(env.DB, account.id, pageOf(url));
  return { formKey: newIdempotencyKey(), name: account?.displayName ?? null, own };
}

/**
 * The entries of each page, shared by every visitor through this location's cache for a minute;
 * a signature forgets them at once, and its signer reads past the cache (their D1 bookmark).
 */
export const cache = { maxAge: 60, staleWhileRevalidate: 60, query: ["page"] };

/** A key the form sent, or (non-browser clients without one) a fresh key: no deduplication then. */
function keyOf(raw: string | undefined): string {
  return raw !== undefined && /^[\w-]{1,100}$/.test(raw) ? raw : newIdempotencyKey();
}

/** What signing takes: checked by the server, and in the browser before a round trip. */
const DeleteSchema = v.object({
  id: v.pipe(v.string(), v.regex(/^[1-9][0-9]{0,15}$/, "Which entry?"), v.transform(Number)),
});

const SignSchema = v.object({
  name: textField({ label: "Name", max: NAME_MAX }),
  message: textField({ label: "Message", max: MESSAGE_MAX, multiline: true }),
});

export const actions = {
  sign: action(SignSchema, async ({ input, fields, env, request, context }) => {
    // Only valid submissions count: a typo costs no signature.
    const within = await withinVisitorLimit(request, {
      visitor: [env.SIGN_LIMITER, "SIGN_LIMITER"],
      network: [env.SIGN_NETWORK_LIMITER, "SIGN_NETWORK_LIMITER"],
    });
    if (!within) {
      return invalid(
        {},
        {
          status: STATUS.tooManyRequests,
          headers: { "Retry-After": String(SIGN_PERIOD_S) },
          message: "You have signed several times in a short while: wait a minute, then send it again.",
        },
      );
    }
    const id = await addEntry(env.DB, {
      ...input,
      formKey: keyOf(fields[IDEMPOTENCY_FIELD]),
      authorId: context.find(accountKey)?.id ?? null,
    });
    return { created: id !== null };
  }),
  /** Only its author deletes an entry: anyone else (signed in or not) gets 403, and nothing changes. */
  delete: action(DeleteSchema, async ({ input, env, context }) => {
    const account = context.find(accountKey);
    if (!account || !(await deleteOwnEntry(env.DB, account.id, input.id))) {
      return invalid({}, { status: STATUS.forbidden, message: "You can delete only your own entries." });
    }
    return { deleted: input.id };
  }),
} satisfies Actions;

const sign = formFor<typeof actions>()("sign", { schema: SignSchema });

/** Minutes precision in UTC: the same text on the server and in every browser (no hydration mismatch). */
const when = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

type Visitor = PageProps<typeof loader, typeof PATH, typeof actions, typeof visitorLoader>["visitor"];

function Entry({ entry, visitor }: { entry: Data<typeof loader>["entries"][number]; visitor: Visitor }) {
  return (
    <li className="entry" data-testid="entry">
      <p className="entry-meta">
        <strong className="entry-name">{entry.name}</strong>{" "}
        <time dateTime={entry.createdAt}>{when(entry.createdAt)}</time>
      </p>
      <p className="entry-message">{entry.message}</p>
      {/* The visitor's own entries only: a hole each, filled per visitor. */}
      <Suspense fallback={null}>
        <Await resolve={visitor}>
          {({ own }) => (own.includes(entry.id) ? <DeleteEntry id={entry.id} page={PATH} /> : null)}
        </Await>
      </Suspense>
    </li>
  );
}

/** An entry on its way: shown at the top from the moment it is sent until the answer is in. */
function PendingEntry({ name, message }: { name: string; message: string }) {
  return (
    <li className="entry entry-pending" data-testid="pending-entry" aria-busy="true">
      <p className="entry-meta">
        <strong className="entry-name">{name}</strong> <span>sending…</span>
      </p>
      <p className="entry-message">{message}</p>
    </li>
  );
}

/** React's own form status: pending while the form's submission is on its way. */
function SignButton() {
  const { pending } = useFormStatus();
  return (
    <button type="submit" disabled={pending}>
      {pending ? "Signing…" : "Sign the guestbook"}
    </button>
  );
}

function Pager({ page, pages }: { page: number; pages: number }) {
  if (pages === 1) return null;
  return (
    <nav aria-label="Guestbook pages" className="pager">
      {page > 1 ? (
        <a href={pageHref(page - 1)} rel="prev">
          Newer entries
        </a>
      ) : null}{" "}
      <span>
        Page {page} of {pages}
      </span>{" "}
      {page < pages ? (
        <a href={pageHref(page + 1)} rel="next">
          Older entries
        </a>
      ) : null}
    </nav>
  );
}

export default function Guestbook({
  data,
  actionData,
  visitor,
}: PageProps<typeof loader, typeof PATH, typeof actions, typeof visitorLoader>) {
  // The signature on its way, until its answer: then the page's own entries (with it, after a
  // success; without it, after a refusal or an error). Only the first page shows the newest.
  const [pending, setPending] = useOptimistic<{ name: string; message: string } | null>(null);
  const optimistic = (form: FormData) => {
    if (data.page === 1) setPending({ name: String(form.get("name")), message: String(form.get("message")) });
  };
  const shown = pending !== null || data.entries.length > 0;
  return (
    <>
      <h1>Guestbook</h1>
      <section aria-labelledby="sign-heading">
        <h2 id="sign-heading">Sign the guestbook</h2>
        <sign.Form
          action={PATH}
          actionData={actionData}
          successMessage="Thank you for signing the guestbook."
          optimistic={optimistic}
        >
          <Suspense fallback={null}>
            <Await resolve={visitor}>
              {({ formKey, name }) => (
                <>
                  <sign.IdempotencyKey value={formKey} />
                  {name ? <p data-testid="signed-in-as">Signed in as {name}</p> : null}
                </>
              )}
            </Await>
          </Suspense>
          <sign.Field name="name" label="Name" required maxLength={NAME_MAX} autoComplete="name" />
          <sign.Field name="message" label="Message" multiline required maxLength={MESSAGE_MAX} rows={4} />
          <SignButton />
        </sign.Form>
      </section>
      <section aria-labelledby="entries-heading">
        <h2 id="entries-heading">
          Entries <span className="count">({data.total})</span>
        </h2>
        {!shown ? (
          <p>No entries yet: be the first to sign.</p>
        ) : (
          <ol className="entries" data-testid="entries">
            {pending ? <PendingEntry {...pending} /> : null}
            {data.entries.map((entry) => (
              <Entry key={entry.id} entry={entry} visitor={visitor} />
            ))}
          </ol>
        )}
        <Pager page={data.page} pages={data.pages} />
      </section>
    </>
  );
}
