// Rejects the change being applied with its issue: the chunk records it as that change's
// outcome and goes on with the others (nothing of the rejected change is written).
import type { ChangeIssue } from './change-set.js';
import { MappingIssue } from './mapping/resource-mapping.js';

export function rejectedBy(issue: ChangeIssue): never {
  throw new MappingIssue(issue);
}
