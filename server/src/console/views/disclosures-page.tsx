// A resident's accounting of disclosures (HIPAA 164.528), as `ops audit disclosures` gives it.
import type { VNode } from 'preact';
import type { DisclosureRecord } from '../../audit/disclosures.js';
import { Time } from './layout.js';

export interface DisclosuresQuery {
  resident?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

export function DisclosuresContent({ query, disclosures }: { query: DisclosuresQuery; disclosures: DisclosureRecord[] | undefined }): VNode {
  return (
    <>
      <form method="get" action="/console/disclosures" class="filters" role="search" aria-label="Find a resident's disclosures">
        <label>
          Resident id
          <input name="resident" value={query.resident ?? ''} required pattern="[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}" placeholder="Patient id (UUID)" />
        </label>
        <label>
          From (UTC day)
          <input type="date" name="from" value={query.from ?? ''} />
        </label>
        <label>
          To (UTC day, included)
          <input type="date" name="to" value={query.to ?? ''} />
        </label>
        <button type="submit">Show</button>
      </form>
      {disclosures === undefined ? (
        <p>Every disclosure of one resident's records to a partner: API reads and lists that returned them, and webhook deliveries of events about the resident.</p>
      ) : disclosures.length === 0 ? (
        <p>No disclosure of this resident's records in this period.</p>
      ) : (
        <table>
          <caption>Oldest first.</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">To</th>
              <th scope="col">Purpose</th>
              <th scope="col">Channel</th>
              <th scope="col">Operation</th>
              <th scope="col">Records</th>
            </tr>
          </thead>
          <tbody>
            {disclosures.map((d) => (
              <tr>
                <td>
                  <Time at={d.at} />
                </td>
                <td>
                  {d.client_name ?? '?'}
                  <br />
                  <code class="id">{d.client_id}</code>
                </td>
                <td>{d.purpose}</td>
                <td>{d.channel}</td>
                <td>{d.operation}</td>
                <td>
                  {d.resource_types.join(', ')}: {d.resource_ids.length}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
