// `source create|list|revoke`: ingest credentials, the way a facility's system of record
// (EHR, ADT feed) connects. A separate kind from partner credentials: scope ingest.write only,
// so it can write through /api/v1/ingest and read nothing; a partner credential never gets it.
import { createClient, findClient, listClients, revokeClient } from '../../auth/clients.js';
import { INGEST_SCOPE } from '../../tenancy/scopes.js';
import { findOrganization } from '../../organizations/organizations.js';
import { nameOption, uuidList, uuidOption, UsageError, type Command } from '../command.js';
import { publicView } from './clients.js';

export const sourceCreate: Command = {
  name: 'source create',
  summary: `Connect a system of record: issue an ingest credential (${INGEST_SCOPE} only); its secret is shown only in this output.`,
  usage: 'source create --org ORG --facilities F1,F2 --name NAME [--json]',
  options: { org: { type: 'string' }, facilities: { type: 'string' }, name: { type: 'string' } },
  async run(args, cli) {
    const orgId = uuidOption(args, 'org');
    const facilityIds = uuidList(args, 'facilities');
    const name = nameOption(args, 'name');
    const db = await cli.db();
    if (!(await findOrganization(db, orgId))) throw new UsageError(`no organization ${orgId}`);
    try {
      // Exactly what the system of record needs; an ingest credential signs in with its secret.
      const { client_id, client_secret, org_id, facility_ids, scopes } = await createClient(db, { orgId, facilityIds, scopes: [INGEST_SCOPE], name, kind: 'ingest' });
      return { client_id, client_secret, org_id, facility_ids, scopes };
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
  },
  format: (c: { client_id: string; client_secret: string; facility_ids: string[] }) =>
    `client_id:     ${c.client_id}\nclient_secret: ${c.client_secret}\n(shown only now: store it in the system of record's secret store)\nscopes:        ${INGEST_SCOPE}\nfacilities:    ${c.facility_ids.join(', ')}`,
};

export const sourceList: Command = {
  name: 'source list',
  summary: "List an organization's ingest credentials (never their secrets).",
  usage: 'source list --org ORG [--json]',
  options: { org: { type: 'string' } },
  async run(args, cli) {
    const sources = await listClients(await cli.db(), uuidOption(args, 'org'), 'ingest');
    return { sources: sources.map(publicView) };
  },
  format: (r: { sources: Array<ReturnType<typeof publicView>> }) =>
    r.sources.map((c) => `${c.client_id}  ${c.status.padEnd(8)} ${c.name}  facilities: ${c.facility_ids.join(',')}`).join('\n') || '(no sources)',
};

export const sourceRevoke: Command = {
  name: 'source revoke',
  summary: 'Revoke an ingest credential; its tokens stop working within seconds.',
  usage: 'source revoke CLIENT_ID [--json]',
  options: {},
  positionals: 1,
  async run(args, cli) {
    const db = await cli.db();
    const existing = await findClient(db, args.positionals[0]!);
    if (!existing || existing.kind !== 'ingest') throw new UsageError(`no ingest credential ${args.positionals[0]}`);
    return publicView((await revokeClient(db, existing.client_id))!.client);
  },
  format: (c: { client_id: string; status: string }) => `source ${c.client_id} is ${c.status}`,
};
