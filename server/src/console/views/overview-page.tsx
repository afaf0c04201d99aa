// The overview: feeds, subscriptions, exports and eligibility checks at a glance.
import type { VNode } from 'preact';
import type { OverviewFigures } from '../console-overview.js';
import { Badge } from './badges.js';
import { Time } from './layout.js';

/** One feed (a source that sent messages in the last 24 hours) and its figures. */
export interface FeedFigures {
  source: string;
  road: string;
  messagesLastHour: number;
  refusedLastHour: number;
  refusedLastDay: number;
  lastMessageAt: string | null;
  openConnections: number | null;
}

export function OverviewContent({ figures, feeds }: { figures: OverviewFigures; feeds: FeedFigures[] }): VNode {
  return (
    <>
      <section aria-labelledby="feeds">
        <h2 id="feeds">Feeds</h2>
        {feeds.length === 0 ? (
          <p>No message received in the last 24 hours.</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col">Source</th>
                <th scope="col">Road</th>
                <th scope="col">Messages, last hour</th>
                <th scope="col">Refused, last hour</th>
                <th scope="col">Refused, last 24 h</th>
                <th scope="col">Last message</th>
                <th scope="col">Open MLLP connections</th>
              </tr>
            </thead>
            <tbody>
              {feeds.map((feed) => (
                <tr>
                  <td>{feed.source}</td>
                  <td>{feed.road}</td>
                  <td>{feed.messagesLastHour}</td>
                  <td>{feed.refusedLastHour > 0 ? <a href="/console/messages?status=refused">{feed.refusedLastHour}</a> : 0}</td>
                  <td>{feed.refusedLastDay}</td>
                  <td>
                    <Time at={feed.lastMessageAt} />
                  </td>
                  <td>{feed.openConnections ?? '–'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {figures.connections !== undefined ? (
          <p>
            <small>MLLP connections open on this instance: {figures.connections.reduce((sum, c) => sum + c.open, 0)} in all (every organization's senders).</small>
          </p>
        ) : null}
      </section>
      <section aria-labelledby="subscriptions">
        <h2 id="subscriptions">Webhook subscriptions</h2>
        {figures.subscriptions.length === 0 ? (
          <p>No subscription.</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col">Callback</th>
                <th scope="col">Status</th>
                <th scope="col">Queued</th>
                <th scope="col">Failed</th>
                <th scope="col">Failing since</th>
              </tr>
            </thead>
            <tbody>
              {figures.subscriptions.map((s) => (
                <tr>
                  <td>
                    <a href={`/console/deliveries?subscription=${s.id}`}>{s.callback_url}</a>
                  </td>
                  <td>
                    <Badge status={s.status} />
                    {s.disabled_reason ? ` (${s.disabled_reason})` : ''}
                  </td>
                  <td>{s.queued}</td>
                  <td>{s.failed > 0 ? <a href={`/console/deliveries?subscription=${s.id}&status=failed`}>{s.failed}</a> : 0}</td>
                  <td>{s.failing_since ? <Time at={s.failing_since} /> : 'not failing'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section aria-labelledby="exports">
        <h2 id="exports">Bulk exports under way</h2>
        {figures.exports.length === 0 ? (
          <p>None.</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col">Export</th>
                <th scope="col">Client</th>
                <th scope="col">Status</th>
                <th scope="col">Asked</th>
              </tr>
            </thead>
            <tbody>
              {figures.exports.map((e) => (
                <tr>
                  <td>
                    <code class="id">{e.id}</code>
                  </td>
                  <td>{e.client_id}</td>
                  <td>
                    <Badge status={e.status} />
                  </td>
                  <td>
                    <Time at={e.created_at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section aria-labelledby="eligibility">
        <h2 id="eligibility">Eligibility checks</h2>
        <p>
          Due now: <strong>{figures.eligibility.queued}</strong>. Exchanges in the last 24 hours:{' '}
          {figures.eligibility.lastDay.length === 0 ? 'none' : figures.eligibility.lastDay.map((o) => `${o.outcome} ${o.count}`).join(', ')}.
        </p>
      </section>
    </>
  );
}
