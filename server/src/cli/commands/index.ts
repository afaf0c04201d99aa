// Every ops CLI command. Webhook commands live beside the webhook code.
import type { Command } from '../command.js';
import { migrate } from './migrate.js';
import { facilityCreate, facilityUpdate, orgCreate } from './organizations.js';
import { clientCreate, clientGrant, clientList, clientRevoke, clientUpdate } from './clients.js';
import { consentDeny, consentLift, consentList } from './consents.js';
import { auditDisclosures } from './audit-disclosures.js';
import { seed } from './seed.js';
import { audit } from './audit.js';
import { auditArchive } from './audit-archive.js';
import { partitions } from './partitions.js';
import { eventEmit } from './events.js';
import { importCommand } from './import.js';
import { auditWrites } from './audit-writes.js';
import { sourceCreate, sourceList, sourceRevoke } from './sources.js';
import { deliveriesList, deliveriesRedeliver, deliveriesShow } from './deliveries.js';
import { purge } from './retention.js';
import { backup } from './backup.js';
import { keysRotate } from './keys.js';
import { clearinghouseList, clearinghouseRemove, clearinghouseSet } from './clearinghouse.js';
import { eligibilityCheck, eligibilityLog } from './eligibility.js';
import { messagesList, messagesReprocess, messagesShow } from './messages.js';
import { consoleLink } from './console.js';

export const commands: Command[] = [migrate, orgCreate, facilityCreate, facilityUpdate, clientCreate, clientUpdate, clientList, clientRevoke, clientGrant, consentDeny, consentLift, consentList, sourceCreate, sourceList, sourceRevoke, importCommand, seed, audit, auditWrites, auditDisclosures, auditArchive, eventEmit, deliveriesList, deliveriesShow, deliveriesRedeliver, purge, partitions, backup, keysRotate, clearinghouseSet, clearinghouseList, clearinghouseRemove, eligibilityCheck, eligibilityLog, messagesList, messagesShow, messagesReprocess, consoleLink];
