// The pages outside a session: signing in by a link, and errors.
import type { VNode } from 'preact';
import { html, PlainPage } from './layout.js';

const ASK_FOR_A_LINK = 'npm run -s ops -- console link --org ORG';

export function signInPage(token: string | undefined): string {
  return html(
    <PlainPage title="Sign in">
      {token ? (
        <form method="post" action="/console/sign-in">
          <input type="hidden" name="token" value={token} />
          <p>This link signs you in to the ofctx console once. It cannot be used again.</p>
          <button type="submit">Sign in to the console</button>
        </form>
      ) : (
        <p>
          Sign in with a one-time link. An operator with access to the service's database prints one with <code>{ASK_FOR_A_LINK}</code>.
        </p>
      )}
    </PlainPage>,
  );
}

export function errorPage(title: string, message: string, requestId: string, signIn: boolean): string {
  const body: VNode = (
    <PlainPage title={title}>
      <p role="alert">{message}</p>
      {signIn ? (
        <p>
          Ask for a sign-in link: <code>{ASK_FOR_A_LINK}</code>
        </p>
      ) : (
        <p>
          <a href="/console">Back to the overview</a>
        </p>
      )}
      <p>
        <small>Request {requestId}</small>
      </p>
    </PlainPage>
  );
  return html(body);
}
