// `clearinghouse set | list | remove`: where an organization's eligibility questions (X12 270
// over CAQH CORE) go. See eligibility/clearinghouse-connections.ts.
import { loadSigningSecretCipher } from '../../db/signing-secret-crypto.js';
import { systemResolver } from '../../webhooks/ssrf-guard.js';
import { findOrganization } from '../../organizations/organizations.js';
import { ConnectionProblem, listConnections, removeConnection, setConnection, shownConnection, type ClearinghouseConnection } from '../../eligibility/clearinghouse-connections.js';
import { isUuid } from '../../db/uuid.js';
import { positiveInteger, required, uuidOption, UsageError, type Command } from '../command.js';

const describe = (c: ClearinghouseConnection) =>
  `connection ${c.id}: ${c.protocol.toUpperCase()} ${c.url} as ${c.sender_id} -> ${c.receiver_id}, ${c.payers ? `payers ${c.payers.join(', ')}` : 'default (every other payer)'}, ${c.concurrency} at once${c.usage === 'T' ? ', test mode' : ''}${c.paused_until ? `, paused until ${c.paused_until}` : ''}`;

export const clearinghouseSet: Command = {
  name: 'clearinghouse set',
  summary: 'Create or update the organization\'s clearinghouse connection for real-time eligibility (the one serving the same --payers, or the default). The password is encrypted at rest and never printed.',
  usage: 'clearinghouse set --org ORG --url URL --protocol soap|mime --username U --password P --sender-id ID --receiver-id ID [--payers P1,P2] [--concurrency N] [--test] [--json]',
  options: {
    org: { type: 'string' },
    url: { type: 'string' },
    protocol: { type: 'string' },
    username: { type: 'string' },
    password: { type: 'string' },
    'sender-id': { type: 'string' },
    'receiver-id': { type: 'string' },
    payers: { type: 'string' },
    concurrency: { type: 'string' },
    test: { type: 'boolean' },
  },
  async run(args, cli) {
    const db = await cli.db();
    const orgId = uuidOption(args, 'org');
    if (!(await findOrganization(db, orgId))) throw new UsageError(`no organization ${orgId}`);
    const { cipher } = loadSigningSecretCipher(cli.config.databaseUrl, cli.config.webhooks.encryptionKey, cli.config.webhooks.previousEncryptionKey);
    const payers = typeof args.values.payers === 'string' ? args.values.payers.split(',').map((p) => p.trim()).filter(Boolean) : null;
    try {
      const { connection, created } = await setConnection(db, cipher, { allowPrivateTargets: cli.config.webhooks.allowPrivateTargets, resolve: systemResolver }, {
        orgId,
        url: required(args, 'url'),
        protocol: required(args, 'protocol').toLowerCase() as 'soap' | 'mime',
        username: required(args, 'username'),
        password: typeof args.values.password === 'string' ? args.values.password : '',
        senderId: required(args, 'sender-id'),
        receiverId: required(args, 'receiver-id'),
        payers,
        concurrency: positiveInteger(args, 'concurrency', 4),
        usage: args.values.test ? 'T' : 'P',
      });
      return { ...connection, created };
    } catch (error) {
      if (error instanceof ConnectionProblem) throw new UsageError(error.message);
      throw error;
    }
  },
  format: (c: ClearinghouseConnection & { created: boolean }) => `${c.created ? 'created' : 'updated'} ${describe(c)}`,
};

export const clearinghouseList: Command = {
  name: 'clearinghouse list',
  summary: 'The organization\'s clearinghouse connections (never their passwords).',
  usage: 'clearinghouse list --org ORG [--json]',
  options: { org: { type: 'string' } },
  async run(args, cli) {
    const connections = await listConnections(await cli.db(), uuidOption(args, 'org'));
    return { connections: connections.map(shownConnection) };
  },
  format: (r: { connections: ClearinghouseConnection[] }) => (r.connections.length ? r.connections.map(describe).join('\n') : 'no clearinghouse connection: no eligibility check is made (ops clearinghouse set)'),
};

export const clearinghouseRemove: Command = {
  name: 'clearinghouse remove',
  summary: 'Remove a clearinghouse connection; checks of the payers it served wait for another one.',
  usage: 'clearinghouse remove ID [--json]',
  options: {},
  positionals: 1,
  async run(args, cli) {
    const id = args.positionals[0]!.trim().toLowerCase();
    if (!isUuid(id)) throw new UsageError(`ID must be a connection id (a UUID), got "${args.positionals[0]}"`);
    const removed = await removeConnection(await cli.db(), id);
    if (!removed) throw new UsageError(`no clearinghouse connection ${id}`);
    return { removed };
  },
  format: (r: { removed: ClearinghouseConnection }) => `removed ${describe(r.removed)}`,
};
