// The frame of every console page: the stylesheets (this service's own, no script anywhere),
// a skip link, the navigation with the current page marked (aria-current), who is signed in
// to which organization with the sign-out button, and the outcome of the last action (a
// status region, read out by screen readers).
import type { ComponentChildren, VNode } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { CSRF_FIELD } from '../console-csrf.js';

export type NavKey = 'overview' | 'messages' | 'deliveries' | 'clients' | 'disclosures';

const NAV: Array<{ key: NavKey; href: string; label: string }> = [
  { key: 'overview', href: '/console', label: 'Overview' },
  { key: 'messages', href: '/console/messages', label: 'Messages' },
  { key: 'deliveries', href: '/console/deliveries', label: 'Deliveries' },
  { key: 'clients', href: '/console/clients', label: 'Clients' },
  { key: 'disclosures', href: '/console/disclosures', label: 'Disclosures' },
];

export interface SignedIn {
  orgName: string;
  operator: string;
  csrfToken: string;
}

/** The hidden field every form that changes something carries. */
export function CsrfField({ token }: { token: string }): VNode {
  return <input type="hidden" name={CSRF_FIELD} value={token} />;
}

function Document({ title, children }: { title: string; children: ComponentChildren }): VNode {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light" />
        {/* No icon: the browser would otherwise ask /favicon.ico, outside the console. */}
        <link rel="icon" href="data:," />
        <title>{`${title} · ofctx console`}</title>
        <link rel="stylesheet" href="/console/assets/pico.css" />
        <link rel="stylesheet" href="/console/assets/console.css" />
      </head>
      <body>{children}</body>
    </html>
  );
}

export interface PageProps {
  title: string;
  nav: NavKey;
  signedIn: SignedIn;
  flash?: string | undefined;
  children: ComponentChildren;
}

export function ConsolePage({ title, nav, signedIn, flash, children }: PageProps): VNode {
  return (
    <Document title={title}>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="container">
        <nav aria-label="Console">
          <ul>
            <li>
              <strong>ofctx console</strong>
            </li>
            {NAV.map((item) => (
              <li>
                <a href={item.href} aria-current={item.key === nav ? 'page' : undefined}>
                  {item.label}
                </a>
              </li>
            ))}
          </ul>
          <ul>
            <li>
              <small>
                {signedIn.operator} · {signedIn.orgName}
              </small>
            </li>
            <li>
              <form method="post" action="/console/sign-out" class="inline">
                <CsrfField token={signedIn.csrfToken} />
                <button type="submit" class="secondary outline">
                  Sign out
                </button>
              </form>
            </li>
          </ul>
        </nav>
      </header>
      <main id="main" class="container">
        <h1>{title}</h1>
        {flash ? (
          <div role="status" class="flash">
            {flash.split('\n').map((line) => (
              <p>{line}</p>
            ))}
          </div>
        ) : null}
        {children}
      </main>
    </Document>
  );
}

/** A page outside a session: sign-in, errors. */
export function PlainPage({ title, children }: { title: string; children: ComponentChildren }): VNode {
  return (
    <Document title={title}>
      <main id="main" class="container narrow">
        <h1>{title}</h1>
        {children}
      </main>
    </Document>
  );
}

export function html(page: VNode): string {
  return `<!doctype html>\n${renderToString(page)}`;
}

/** An instant as stored (ISO 8601 UTC), shown to the minute and marked up for machines. */
export function Time({ at }: { at: string | null | undefined }): VNode {
  if (!at) return <span>–</span>;
  return <time datetime={at}>{at.replace('T', ' ').slice(0, 19)} UTC</time>;
}
