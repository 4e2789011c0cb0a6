// The signed-in visitor's pages (/account, /account/passkeys): its middleware lets only a signed-in
// visitor through (the others go to /sign-in and come back), its loader says who they are.
import type { ReactNode } from "react";
import type { LayoutProps, LoaderArgs } from "verge";
import { requireAccount, signedIn } from "../auth/session.server";

export const middleware = [requireAccount];

export const loader = ({ context }: LoaderArgs) => ({ displayName: signedIn(context).displayName });

export const title = (page: string) => `${page} · Your account`;

// Never in a search engine, nor in any shared cache: each visitor's own.
export const meta = { robots: "noindex" };

export default function AccountLayout({ children, data }: LayoutProps<typeof loader>): ReactNode {
  return (
    <>
      <p className="account-who">
        Signed in as <strong data-testid="account-name">{data.displayName}</strong>
      </p>
      <nav aria-label="Account" className="pager">
        <a href="/account">Your account</a> <a href="/account/passkeys">Passkeys</a>
      </nav>
      {children}
    </>
  );
}
