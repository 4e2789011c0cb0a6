// The product's layout: skip link, header navigation, and the <main> every page renders into.
import type { ReactNode } from "react";
import { PageTransition, type PageMeta } from "verge";

/** What every page's head says unless the page says otherwise. */
export const meta: PageMeta = { description: "verge: a React application on Cloudflare Workers." };

const NAV = [
  { href: "/", label: "Home" },
  { href: "/guestbook", label: "Guestbook" },
  { href: "/slow", label: "Slow" },
  { href: "/errors", label: "Errors" },
  { href: "/account", label: "Account" },
];

export default function Layout({ children }: { children: ReactNode }) {
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="site-header">
        <a className="brand" href="/">
          verge
        </a>
        <nav aria-label="Main">
          <ul>
            {NAV.map((item) => (
              <li key={item.href}>
                <a href={item.href}>{item.label}</a>
              </li>
            ))}
          </ul>
        </nav>
      </header>
      {/* Going to another page cross-fades this part; the header and footer stay put. */}
      <PageTransition>
        <main id="main" tabIndex={-1}>
          {children}
        </main>
      </PageTransition>
      <footer className="site-footer">
        <p>verge: React on Cloudflare Workers.</p>
      </footer>
    </>
  );
}
