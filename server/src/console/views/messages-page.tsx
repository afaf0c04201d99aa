// The message browser: the filters of `ops messages list`, the messages newest first with
// why each refused one was, a selection of refused ones to reprocess; and one message with
// its answer, the records it changed, its reprocess outcomes and, asked for, its segments.
import type { VNode } from 'preact';
import { MESSAGE_STATUSES, type MessageDetail, type MessageSummary } from '../../messages/message-types.js';
import type { Facility } from '../../organizations/organizations.js';
import { Badge } from './badges.js';
import { CsrfField, Time } from './layout.js';

export interface MessageFilters {
  facility?: string | undefined;
  status?: string | undefined;
  type?: string | undefined;
  since?: string | undefined;
  resident?: string | undefined;
}

function sourceOf(m: MessageSummary): string {
  const who = [m.source.sending_application, m.source.sending_facility].filter(Boolean).join(' / ');
  const where = m.source.peer ?? m.source.client_id ?? '';
  return [who, where].filter(Boolean).join(' from ') || m.road;
}

/** The query string of a list with these filters (and a cursor). */
export function messagesQuery(filters: MessageFilters, cursor?: string): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) if (value) params.set(name, value);
  if (cursor) params.set('cursor', cursor);
  const text = params.toString();
  return text ? `?${text}` : '';
}

export function MessagesContent(props: { messages: MessageSummary[]; next: string | null; filters: MessageFilters; facilities: Facility[]; csrfToken: string; back: string }): VNode {
  const { messages, filters, facilities } = props;
  const facilityName = new Map(facilities.map((f) => [f.id, f.name]));
  const refused = messages.filter((m) => m.current_status === 'refused');
  return (
    <>
      <form method="get" action="/console/messages" class="filters" aria-label="Filter messages">
        <label>
          Facility
          <select name="facility">
            <option value="">any</option>
            {facilities.map((f) => (
              <option value={f.id} selected={filters.facility === f.id}>
                {f.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Status
          <select name="status">
            <option value="">any</option>
            {MESSAGE_STATUSES.map((status) => (
              <option value={status} selected={filters.status === status}>
                {status.replace(/_/g, ' ')}
              </option>
            ))}
          </select>
        </label>
        <label>
          Type
          <input name="type" value={filters.type ?? ''} placeholder="ADT^A01, ADT, Bundle, 271" maxLength={20} />
        </label>
        <label>
          Received since (UTC)
          <input type="datetime-local" name="since" value={filters.since ?? ''} />
        </label>
        <label>
          Resident id
          <input name="resident" value={filters.resident ?? ''} placeholder="Patient id (UUID)" />
        </label>
        <button type="submit">Filter</button>
      </form>
      {messages.length === 0 ? (
        <p>No message matches.</p>
      ) : (
        <form method="post" action="/console/messages/reprocess">
          <CsrfField token={props.csrfToken} />
          <input type="hidden" name="back" value={props.back} />
          <table>
            <caption>Newest first. Refused messages can be selected and reprocessed (after fixing what the reason names).</caption>
            <thead>
              <tr>
                <th scope="col">Select</th>
                <th scope="col">Received</th>
                <th scope="col">Type</th>
                <th scope="col">Source</th>
                <th scope="col">Facility</th>
                <th scope="col">Status</th>
                <th scope="col">Answer sent</th>
              </tr>
            </thead>
            <tbody>
              {messages.map((m) => (
                <tr>
                  <td>{m.current_status === 'refused' ? <input type="checkbox" name="message_id" value={m.id} aria-label={`Select ${m.message_type} ${m.control_id ?? m.id}`} /> : null}</td>
                  <td>
                    <a href={`/console/messages/${m.id}`}>
                      <Time at={m.received_at} />
                    </a>
                  </td>
                  <td>
                    {m.message_type}
                    {m.control_id ? (
                      <>
                        <br />
                        <small>{m.control_id}</small>
                      </>
                    ) : null}
                  </td>
                  <td>{sourceOf(m)}</td>
                  <td>{m.facility_id ? (facilityName.get(m.facility_id) ?? m.facility_id) : '–'}</td>
                  <td>
                    <Badge status={m.current_status} />
                    {m.current_status !== m.status ? (
                      <>
                        <br />
                        <small>was {m.status.replace(/_/g, ' ')}</small>
                      </>
                    ) : null}
                  </td>
                  <td>
                    {m.answer_code}
                    {m.reason ? (
                      <>
                        <br />
                        <small>{m.reason}</small>
                      </>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {refused.length > 0 ? <button type="submit">Reprocess selected</button> : null}
        </form>
      )}
      {props.next ? (
        <p>
          <a href={`/console/messages${messagesQuery(filters, props.next)}`}>Older messages</a>
        </p>
      ) : null}
    </>
  );
}

function Segments({ segments }: { segments: string[][] }): VNode {
  return (
    <table>
      <caption>Segments, fields numbered as HL7 counts them (empty fields left out).</caption>
      <tbody>
        {segments.map((fields) => (
          <tr>
            <th scope="row">{fields[0]}</th>
            <td>
              <ol class="fields">
                {fields.slice(1).map((field, i) =>
                  field === '' ? null : (
                    <li value={i + 1}>
                      <code>{field}</code>
                    </li>
                  ),
                )}
              </ol>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function MessageContent({ message, csrfToken, facilityName }: { message: MessageDetail; csrfToken: string; facilityName: string | undefined }): VNode {
  return (
    <>
      <dl>
        <dt>Received</dt>
        <dd>
          <Time at={message.received_at} /> over {message.road}
        </dd>
        <dt>Type and control id</dt>
        <dd>
          {message.message_type} {message.control_id ?? ''}
        </dd>
        <dt>Source</dt>
        <dd>{sourceOf(message)}</dd>
        <dt>Facility</dt>
        <dd>{facilityName ?? message.facility_id ?? 'none found'}</dd>
        <dt>Status</dt>
        <dd>
          <Badge status={message.current_status} /> {message.current_status !== message.status ? `(was ${message.status.replace(/_/g, ' ')} at receipt)` : ''}
        </dd>
        <dt>Size</dt>
        <dd>{message.size_bytes} bytes</dd>
      </dl>
      {message.current_status === 'refused' ? (
        <form method="post" action="/console/messages/reprocess">
          <CsrfField token={csrfToken} />
          <input type="hidden" name="message_id" value={message.id} />
          <input type="hidden" name="back" value={`/console/messages/${message.id}`} />
          <button type="submit">Reprocess this message</button>
          <small> Runs it through its road again, as received; fix what the answer names first (a facility's HL7 code: ops facility update FAC --hl7-code CODE).</small>
        </form>
      ) : null}
      <h2>Answer sent: {message.answer.code}</h2>
      {message.answer.errors.length === 0 ? (
        <p>No error.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Severity</th>
              <th scope="col">Code</th>
              <th scope="col">Where</th>
              <th scope="col">What</th>
            </tr>
          </thead>
          <tbody>
            {message.answer.errors.map((e) => (
              <tr>
                <td>{e.severity}</td>
                <td>{e.code}</td>
                <td>{e.where ?? '–'}</td>
                <td>{e.text}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h2>Records it changed</h2>
      <Records records={message.records} />
      {message.outcomes.length > 0 ? (
        <>
          <h2>Reprocessed</h2>
          <table>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">By</th>
                <th scope="col">Status</th>
                <th scope="col">Answer</th>
                <th scope="col">Records</th>
              </tr>
            </thead>
            <tbody>
              {message.outcomes.map((o) => (
                <tr>
                  <td>
                    <Time at={o.received_at} />
                  </td>
                  <td>{o.reprocessed_by ?? '–'}</td>
                  <td>
                    <Badge status={o.status} />
                  </td>
                  <td>
                    {o.answer_code}
                    {o.reason ? (
                      <>
                        <br />
                        <small>{o.reason}</small>
                      </>
                    ) : null}
                  </td>
                  <td>
                    <Records records={o.records} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
      <h2>Content</h2>
      {message.content === undefined ? (
        message.has_content ? (
          <p>
            <a href={`/console/messages/${message.id}?content=shown`}>Show the message's content</a> (patient data; the view is recorded in the audit trail).
          </p>
        ) : (
          <p>Its content was removed by the retention job (MESSAGE_RETENTION_DAYS).</p>
        )
      ) : message.content.segments ? (
        <Segments segments={message.content.segments} />
      ) : (
        <pre class="segments">{message.content.raw}</pre>
      )}
    </>
  );
}

function Records({ records }: { records: MessageDetail['records'] }): VNode {
  if (records.length === 0) return <p>None.</p>;
  return (
    <ul>
      {records.map((r) => (
        <li>
          {r.type} {r.outcome} (version {r.version}){' '}
          {r.type === 'Patient' ? (
            <a href={`/console/messages?resident=${r.id}`}>
              <code class="id">{r.id}</code>
            </a>
          ) : (
            <code class="id">{r.id}</code>
          )}
        </li>
      ))}
    </ul>
  );
}
