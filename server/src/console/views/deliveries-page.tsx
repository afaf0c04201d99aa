// Deliveries: the organization's subscriptions with enable and recover, and its deliveries
// (filtered by status or subscription), each linking to its attempts.
import type { VNode } from 'preact';
import type { SubscriptionFigures } from '../console-overview.js';
import type { AttemptRecord, DeliveryRecord } from '../../webhooks/delivery-store.js';
import { DELIVERY_STATUSES } from '../../webhooks/delivery-store.js';
import { Badge } from './badges.js';
import { CsrfField, Time } from './layout.js';

export interface DeliveriesFilter {
  status?: string | undefined;
  subscription?: string | undefined;
}

function SubscriptionActions({ s, csrfToken }: { s: SubscriptionFigures; csrfToken: string }): VNode {
  if (s.status === 'revoked') return <span>Revoked by its owner.</span>;
  return (
    <div class="actions">
      {s.status === 'disabled' ? (
        <form method="post" action={`/console/subscriptions/${s.id}/enable`}>
          <CsrfField token={csrfToken} />
          <button type="submit">Enable</button>
        </form>
      ) : null}
      <form method="post" action={`/console/subscriptions/${s.id}/recover`}>
        <CsrfField token={csrfToken} />
        <label>
          Recover failed deliveries since (UTC)
          <input type="datetime-local" name="since" required />
        </label>
        <button type="submit" class="secondary">
          Recover
        </button>
      </form>
    </div>
  );
}

export function DeliveriesContent(props: { subscriptions: SubscriptionFigures[]; deliveries: DeliveryRecord[]; filter: DeliveriesFilter; csrfToken: string; limit: number }): VNode {
  const { subscriptions, deliveries, filter, csrfToken } = props;
  const urlOf = new Map(subscriptions.map((s) => [s.id, s.callback_url]));
  return (
    <>
      <section aria-labelledby="subscriptions">
        <h2 id="subscriptions">Subscriptions</h2>
        {subscriptions.length === 0 ? (
          <p>No subscription.</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col">Callback</th>
                <th scope="col">Status</th>
                <th scope="col">Queued</th>
                <th scope="col">Failed</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {subscriptions.map((s) => (
                <tr>
                  <td>
                    <a href={`/console/deliveries?subscription=${s.id}`}>{s.callback_url}</a>
                    <br />
                    <code class="id">{s.id}</code>
                  </td>
                  <td>
                    <Badge status={s.status} />
                    {s.disabled_reason ? ` (${s.disabled_reason})` : ''}
                    {s.failing_since ? (
                      <>
                        <br />
                        failing since <Time at={s.failing_since} />
                      </>
                    ) : null}
                  </td>
                  <td>{s.queued}</td>
                  <td>{s.failed}</td>
                  <td>
                    <SubscriptionActions s={s} csrfToken={csrfToken} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section aria-labelledby="deliveries">
        <h2 id="deliveries">Deliveries</h2>
        <form method="get" action="/console/deliveries" class="filters" role="search" aria-label="Filter deliveries">
          <label>
            Status
            <select name="status">
              <option value="">any</option>
              {DELIVERY_STATUSES.map((status) => (
                <option value={status} selected={filter.status === status}>
                  {status}
                </option>
              ))}
            </select>
          </label>
          <label>
            Subscription
            <select name="subscription">
              <option value="">any</option>
              {subscriptions.map((s) => (
                <option value={s.id} selected={filter.subscription === s.id}>
                  {s.callback_url}
                </option>
              ))}
            </select>
          </label>
          <button type="submit">Filter</button>
        </form>
        {deliveries.length === 0 ? (
          <p>No delivery matches.</p>
        ) : (
          <table>
            <caption>
              Newest first{deliveries.length === props.limit ? `, the latest ${props.limit}` : ''}.
            </caption>
            <thead>
              <tr>
                <th scope="col">Delivery</th>
                <th scope="col">Event</th>
                <th scope="col">Subscription</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
                <th scope="col">Last answer</th>
                <th scope="col">Next attempt</th>
              </tr>
            </thead>
            <tbody>
              {deliveries.map((d) => (
                <tr>
                  <td>
                    <a href={`/console/deliveries/${d.id}`}>
                      <code class="id">{d.id}</code>
                    </a>
                  </td>
                  <td>{d.event_type}</td>
                  <td>{urlOf.get(d.subscription_id) ?? d.subscription_id}</td>
                  <td>
                    <Badge status={d.status} />
                  </td>
                  <td>{d.attempts}</td>
                  <td>{[d.last_status, d.last_error].filter((v) => v !== null).join(' ') || '–'}</td>
                  <td>
                    <Time at={d.next_attempt_at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}

export function DeliveryContent({ delivery, attempts, callbackUrl, csrfToken }: { delivery: DeliveryRecord; attempts: AttemptRecord[]; callbackUrl: string; csrfToken: string }): VNode {
  const queued = delivery.status === 'pending' || delivery.status === 'sending';
  return (
    <>
      <dl>
        <dt>Delivery</dt>
        <dd>
          <code class="id">{delivery.id}</code>
        </dd>
        <dt>Event</dt>
        <dd>
          {delivery.event_type} <code class="id">{delivery.event_id}</code>
        </dd>
        <dt>Subscription</dt>
        <dd>
          <a href={`/console/deliveries?subscription=${delivery.subscription_id}`}>{callbackUrl}</a>
        </dd>
        <dt>Status</dt>
        <dd>
          <Badge status={delivery.status} />
        </dd>
        <dt>Created</dt>
        <dd>
          <Time at={delivery.created_at} />
        </dd>
        <dt>Next attempt</dt>
        <dd>
          <Time at={delivery.next_attempt_at} />
        </dd>
      </dl>
      {queued ? (
        <p>The delivery is queued; it will be attempted without being asked again.</p>
      ) : (
        <form method="post" action={`/console/deliveries/${delivery.id}/redeliver`}>
          <CsrfField token={csrfToken} />
          <button type="submit">Redeliver</button>
          <small> Same delivery id and body bytes, due now, with a fresh retry schedule.</small>
        </form>
      )}
      <h2>Attempts</h2>
      {attempts.length === 0 ? (
        <p>No attempt yet.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Started</th>
              <th scope="col">Status code</th>
              <th scope="col">Duration</th>
              <th scope="col">Error</th>
            </tr>
          </thead>
          <tbody>
            {attempts.map((a) => (
              <tr>
                <td>{a.attempt}</td>
                <td>
                  <Time at={a.started_at} />
                </td>
                <td>{a.response_status ?? '–'}</td>
                <td>{a.duration_ms === null ? '–' : `${a.duration_ms} ms`}</td>
                <td>{a.error_class ?? 'none'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
