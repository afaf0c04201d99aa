import { createClient, findClient, grantFacilities, listClients, revokeClient, type ClientRecord } from '../../auth/clients.js';
import { INGEST_SCOPE, PARTNER_SCOPES, isScope, parseScopes } from '../../auth/scopes.js';
import { findOrganization } from '../../organizations/organizations.js';
import { required, uuidList, uuidOption, UsageError, type Command } from '../command.js';

export function publicView(client: ClientRecord) {
  const { id: _internal, ...rest } = client;
  return rest;
}

export const clientCreate: Command = {
  name: 'client create',
  summary: 'Issue a machine credential; its secret is shown only in this output.',
  usage: 'client create --org ORG --facilities F1,F2 --scopes "S1 S2" --name NAME [--json]',
  options: { org: { type: 'string' }, facilities: { type: 'string' }, scopes: { type: 'string' }, name: { type: 'string' } },
  async run(args, cli) {
    // Check every argument before touching the database.
    const orgId = uuidOption(args, 'org');
    const facilityIds = uuidList(args, 'facilities');
    const name = required(args, 'name');
    const scopes = parseScopes(required(args, 'scopes').replace(/,/g, ' '));
    const unknown = scopes.filter((s) => !isScope(s) || s === INGEST_SCOPE);
    if (scopes.includes(INGEST_SCOPE)) throw new UsageError(`a partner credential cannot hold ${INGEST_SCOPE}; connect a system of record with "source create"`);
    if (unknown.length) throw new UsageError(`unknown scopes ${unknown.join(', ')}; known: ${PARTNER_SCOPES.join(' ')}`);
    const db = await cli.db();
    if (!(await findOrganization(db, orgId))) throw new UsageError(`no organization ${orgId}`);
    try {
      return await createClient(db, { orgId, facilityIds, scopes, name });
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
  },
  format: (c: { client_id: string; client_secret: string; scopes: string[]; facility_ids: string[] }) =>
    `client_id:     ${c.client_id}\nclient_secret: ${c.client_secret}\n(shown only now: store it in your secret manager)\nscopes:        ${c.scopes.join(' ')}\nfacilities:    ${c.facility_ids.join(', ')}`,
};

export const clientList: Command = {
  name: 'client list',
  summary: "List an organization's credentials (never their secrets).",
  usage: 'client list --org ORG [--json]',
  options: { org: { type: 'string' } },
  async run(args, cli) {
    const clients = await listClients(await cli.db(), uuidOption(args, 'org'));
    return { clients: clients.map(publicView) };
  },
  format: (r: { clients: Array<ReturnType<typeof publicView>> }) =>
    r.clients.map((c) => `${c.client_id}  ${c.status.padEnd(8)} ${c.kind.padEnd(8)} ${c.name}  [${c.scopes.join(' ')}]  facilities: ${c.facility_ids.join(',')}`).join('\n') || '(no clients)',
};

export const clientRevoke: Command = {
  name: 'client revoke',
  summary: 'Revoke a credential; its tokens stop working within seconds.',
  usage: 'client revoke CLIENT_ID [--json]',
  options: {},
  positionals: 1,
  async run(args, cli) {
    const client = await revokeClient(await cli.db(), args.positionals[0]!);
    if (!client) throw new UsageError(`no client ${args.positionals[0]}`);
    return publicView(client);
  },
  format: (c: { client_id: string; status: string }) => `client ${c.client_id} is ${c.status}`,
};

export const clientGrant: Command = {
  name: 'client grant',
  summary: "Replace a credential's facility grant.",
  usage: 'client grant CLIENT_ID --facilities F1,F2 [--json]',
  options: { facilities: { type: 'string' } },
  positionals: 1,
  async run(args, cli) {
    const db = await cli.db();
    if (!(await findClient(db, args.positionals[0]!))) throw new UsageError(`no client ${args.positionals[0]}`);
    try {
      return publicView(await grantFacilities(db, args.positionals[0]!, uuidList(args, 'facilities')));
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
  },
  format: (c: { client_id: string; facility_ids: string[] }) => `client ${c.client_id} is granted ${c.facility_ids.join(', ')}`,
};
