import { createFacility, createOrganization, findOrganization } from '../../organizations/organizations.js';
import { required, uuidOption, UsageError, type Command } from '../command.js';

export const orgCreate: Command = {
  name: 'org create',
  summary: 'Create an organization.',
  usage: 'org create --name NAME [--json]',
  options: { name: { type: 'string' } },
  async run(args, cli) {
    return createOrganization(await cli.db(), required(args, 'name'));
  },
  format: (o: { id: string; name: string }) => `organization ${o.id} (${o.name})`,
};

export const facilityCreate: Command = {
  name: 'facility create',
  summary: 'Create a facility of an organization.',
  usage: 'facility create --org ORG --name NAME [--json]',
  options: { org: { type: 'string' }, name: { type: 'string' } },
  async run(args, cli) {
    const db = await cli.db();
    const orgId = uuidOption(args, 'org');
    if (!(await findOrganization(db, orgId))) throw new UsageError(`no organization ${orgId}`);
    return createFacility(db, orgId, required(args, 'name'));
  },
  format: (f: { id: string; name: string; org_id: string }) => `facility ${f.id} (${f.name}) of organization ${f.org_id}`,
};
