// `keys rotate`: moves every webhook signing secret to the current WEBHOOK_ENCRYPTION_KEY,
// decrypting with WEBHOOK_ENCRYPTION_KEY_PREVIOUS where needed (docs/operators/keys.md, "Rotating the webhook encryption key").
import { loadSigningSecretCipher } from '../../db/signing-secret-crypto.js';
import { rotateEncryptionKey, type RotationReport } from '../../webhooks/key-rotation.js';
import type { Command } from '../command.js';

export const keysRotate: Command = {
  name: 'keys rotate',
  summary: 'Re-encrypt every webhook signing secret under WEBHOOK_ENCRYPTION_KEY (WEBHOOK_ENCRYPTION_KEY_PREVIOUS still decrypts meanwhile).',
  usage: 'keys rotate [--json]',
  options: {},
  async run(_args, cli) {
    const { cipher } = loadSigningSecretCipher(cli.config.databaseUrl, cli.config.webhooks.encryptionKey, cli.config.webhooks.previousEncryptionKey);
    const report = await rotateEncryptionKey(await cli.db(), cipher);
    if (report.undecryptable > 0) {
      const where = report.columns.filter((c) => c.undecryptable.length).map((c) => `${c.table}.${c.column}: ${c.undecryptable.join(', ')}`).join('; ');
      throw new Error(`${report.undecryptable} value(s) open with neither WEBHOOK_ENCRYPTION_KEY nor WEBHOOK_ENCRYPTION_KEY_PREVIOUS (subscription ids ${where}); ${report.reencrypted} other(s) were re-encrypted. Give the key they were written with as WEBHOOK_ENCRYPTION_KEY_PREVIOUS and run again.`);
    }
    return report;
  },
  format: (r: RotationReport) =>
    [...r.columns.map((c) => `${c.table}.${c.column}: ${c.reencrypted} re-encrypted, ${c.already_current} already under the current key`), 'Every signing secret is under WEBHOOK_ENCRYPTION_KEY: remove WEBHOOK_ENCRYPTION_KEY_PREVIOUS from every instance.'].join('\n'),
};
