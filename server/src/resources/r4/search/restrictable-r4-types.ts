// Hands the tenancy rules what a granular scope needs of the R4 types (tenancy/restrictable-types.ts):
// the table behind each type and the token search's own condition (search-query.ts tokenMatch),
// so a granular scope hides exactly what that search would not return. Imported for its effect
// by every module that reads records through the tenancy rules (the resource and R4 operations,
// the $export runner, the event log).
import { useRestrictableTypes } from '../../../tenancy/restrictable-types.js';
import { R4_TYPES } from '../r4-types.js';
import { tokenMatch } from './search-query.js';

const byType = new Map(R4_TYPES.map((r4) => [r4.type as string, r4]));
const byTable = new Map(R4_TYPES.map((r4) => [r4.table, r4]));

useRestrictableTypes({
  tableOf: (type) => byType.get(type)?.table,
  typeOf: (table) => byTable.get(table)?.type,
  tokenMatch: (postgres, type, orgId, param, tokens, alias) => tokenMatch(postgres, byType.get(type)!, orgId, param, tokens, alias),
});
