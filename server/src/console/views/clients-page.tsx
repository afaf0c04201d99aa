// The organization's credentials and their access policies, read only: never a secret.
import type { VNode } from 'preact';
import type { ClientRecord } from '../../auth/clients.js';
import { Badge } from './badges.js';
import { Time } from './layout.js';

export function ClientsContent({ clients, facilityNames }: { clients: ClientRecord[]; facilityNames: Map<string, string> }): VNode {
  if (clients.length === 0) return <p>No credential. Operators create them with the ops CLI (client create, source create).</p>;
  return (
    <>
      <p>Read only: credentials and their policies are changed with the ops CLI (client update, client grant, client revoke).</p>
      <table>
        <thead>
          <tr>
            <th scope="col">Client</th>
            <th scope="col">Kind</th>
            <th scope="col">Status</th>
            <th scope="col">Scopes</th>
            <th scope="col">Facilities</th>
            <th scope="col">Purpose of use</th>
            <th scope="col">Payers</th>
            <th scope="col">Restricted records</th>
            <th scope="col">Authentication</th>
          </tr>
        </thead>
        <tbody>
          {clients.map((c) => (
            <tr>
              <td>
                {c.name}
                <br />
                <code class="id">{c.client_id}</code>
                <br />
                <small>
                  created <Time at={c.created_at} />
                </small>
              </td>
              <td>{c.kind}</td>
              <td>
                <Badge status={c.status} />
              </td>
              <td>{c.scopes.join(', ')}</td>
              <td>{c.facility_ids.map((id) => facilityNames.get(id) ?? id).join(', ')}</td>
              <td>{c.policy.purpose}</td>
              <td>{c.policy.payers ? c.policy.payers.join(', ') : 'every resident'}</td>
              <td>{c.policy.sensitive ? 'included' : 'hidden'}</td>
              <td>{c.auth_methods.join(', ')}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
