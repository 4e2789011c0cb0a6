// The product's layout: skip link, header navigation, and the <main> every page renders into.
import type { ReactNode } from "react";
import { Link, PageTransition, useNavigation, type Href, type PageMeta } from "verge";

/** What every page's head says unless the page says otherwise. */
export const meta: PageMeta = { description: "verge: a React application on Cloudflare Workers." };

const NAV: { href: Href; label: string }[] = [
  { href: "/", label: "Home" },
  { href: "/guestbook", label: "Guestbook" },
  { href: "/slow", label: "Slow" },
  { href: "/errors", label: "Errors" },
  { href: "/account", label: "Account" },
];

export default function Layout({ children }: { children: ReactNode }) {
  // While the next page loads (or a form sends), the page on screen says it is not current.
  const pending = useNavigation().state !== "idle";
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="site-header">
        <Link className="brand" to="/">
          verge
        </Link>
        <nav aria-label="Main">
          <ul>
            {NAV.map((item) => (
              <li key={item.href}>
                <Link to={item.href}>{item.label}</Link>
              </li>
            ))}
          </ul>
        </nav>
      </header>
      {/* Going to another page cross-fades this part; the header and footer stay put. */}
      <PageTransition>
        <main id="main" tabIndex={-1} aria-busy={pending || undefined}>
          {children}
        </main>
      </PageTransition>
      <footer className="site-footer">
        <p>verge: React on Cloudflare Workers.</p>
      </footer>
    </>
  );
}
