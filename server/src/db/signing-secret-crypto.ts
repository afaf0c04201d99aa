// Signing secrets (and the other data kept encrypted, such as inbound messages' contents) at rest: AES-256-GCM with a random 12-byte IV per secret, stored as
// `v1:<iv>:<tag>:<ciphertext>` (base64url parts). The subscription id is bound in as
// additional authenticated data, so a ciphertext copied onto another row does not decrypt.
// The key comes from WEBHOOK_ENCRYPTION_KEY; on SQLite without one, a development key is
// generated once and kept beside the database file (mode 0600). PostgreSQL serves several
// instances, which must share one key, so there it is required.
// Key rotation: WEBHOOK_ENCRYPTION_KEY_PREVIOUS names the key being retired. It only ever
// decrypts (GCM's tag tells which key fits); new secrets and `ops keys rotate` use the current one.
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { linkSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { sqlitePath } from '../config/config.js';
import { makePrivate } from './private-files.js';
import { developmentKeyPath } from '../config/development-key-path.js';

const FORMAT_VERSION = 'v1';
const KEY_BYTES = 32;
const IV_BYTES = 12;

export class SigningSecretCipher {
  private readonly key: Buffer;
  private readonly previousKeys: Buffer[];

  /** @param previousKeys keys being retired: they decrypt, never encrypt. */
  constructor(key: Buffer, previousKeys: Buffer[] = []) {
    for (const k of [key, ...previousKeys]) {
      if (k.length !== KEY_BYTES) throw new Error(`the webhook encryption key must be ${KEY_BYTES} bytes, got ${k.length}`);
    }
    this.key = Buffer.from(key);
    this.previousKeys = previousKeys.filter((k) => !k.equals(key)).map((k) => Buffer.from(k));
  }

  /**
   * A keyed digest of a text (HMAC-SHA-256 under a key derived from the current key): tells two
   * equal texts apart from others without keeping a plain hash of patient data (the message
   * store's content_digest). Changes with the key.
   */
  digest(text: string): string {
    this.digestKey ??= Buffer.from(hkdfSync('sha256', this.key, Buffer.alloc(0), 'ofctx content digest', 32));
    return createHmac('sha256', this.digestKey).update(text, 'utf8').digest('base64url');
  }

  private digestKey: Buffer | undefined;

  /** True while an older key is configured for decryption (a rotation is under way). */
  get rotating(): boolean {
    return this.previousKeys.length > 0;
  }

  encrypt(secret: string, subscriptionId: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(subscriptionId, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return [FORMAT_VERSION, iv, cipher.getAuthTag(), ciphertext].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join(':');
  }

  decrypt(stored: string, subscriptionId: string): string {
    return this.open(stored, subscriptionId).secret;
  }

  /**
   * For `ops keys rotate`: the value re-encrypted under the current key, or null when it is
   * already under it. Throws when no configured key decrypts it.
   */
  reencrypt(stored: string, subscriptionId: string): string | null {
    const opened = this.open(stored, subscriptionId);
    return opened.current ? null : this.encrypt(opened.secret, subscriptionId);
  }

  private open(stored: string, subscriptionId: string): { secret: string; current: boolean } {
    const [version, iv, tag, ciphertext, ...rest] = stored.split(':');
    if (version !== FORMAT_VERSION || !iv || !tag || ciphertext === undefined || rest.length > 0) {
      throw new Error(`unsupported signing secret format "${version ?? ''}"`);
    }
    let failure: unknown;
    for (const key of [this.key, ...this.previousKeys]) {
      try {
        // A fixed tag length: a shortened stored tag must fail, not weaken authentication.
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'), { authTagLength: 16 });
        decipher.setAAD(Buffer.from(subscriptionId, 'utf8'));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        const secret = Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
        return { secret, current: key === this.key };
      } catch (error) {
        failure = error;
      }
    }
    throw failure;
  }
}

function decodeKey(base64: string, source: string): Buffer {
  const key = Buffer.from(base64.trim(), 'base64');
  if (key.length !== KEY_BYTES) {
    throw new Error(`${source} must be ${KEY_BYTES} bytes in base64 (for example: openssl rand -base64 32), got ${key.length} bytes`);
  }
  return key;
}

/** The cipher a process uses: the current key (as below) and, during a rotation, the previous one. */
export function loadSigningSecretCipher(databaseUrl: string, configuredKey: string | undefined, previousKey: string | undefined): { cipher: SigningSecretCipher; loaded: LoadedKey } {
  const loaded = loadWebhookEncryptionKey(databaseUrl, configuredKey);
  const previous = previousKey ? [decodeKey(previousKey, 'WEBHOOK_ENCRYPTION_KEY_PREVIOUS')] : [];
  return { cipher: new SigningSecretCipher(loaded.key, previous), loaded };
}

export interface LoadedKey {
  key: Buffer;
  /** Where it came from, for the start-up log (never the key itself). */
  source: 'WEBHOOK_ENCRYPTION_KEY' | 'development key file' | 'ephemeral (in-memory database)';
  file?: string;
}

export function loadWebhookEncryptionKey(databaseUrl: string, configuredKey: string | undefined): LoadedKey {
  if (configuredKey) return { key: decodeKey(configuredKey, 'WEBHOOK_ENCRYPTION_KEY'), source: 'WEBHOOK_ENCRYPTION_KEY' };
  const file = sqlitePath(databaseUrl);
  if (file === null) {
    throw new Error(
      'WEBHOOK_ENCRYPTION_KEY is required with PostgreSQL: every instance must decrypt the same signing secrets. ' +
        'Generate one with `openssl rand -base64 32` and give it to every instance.',
    );
  }
  if (file === ':memory:') return { key: randomBytes(KEY_BYTES), source: 'ephemeral (in-memory database)' };
  const path = developmentKeyPath(file);
  // Written to a private temporary file, then linked into place: link fails if the key file
  // exists, so two processes starting together agree on one key and never read a half file.
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(temporary, randomBytes(KEY_BYTES).toString('base64') + '\n', { flag: 'wx', mode: 0o600 });
  // Exactly 0600 whatever the umask.
  makePrivate(temporary);
  try {
    linkSync(temporary, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(temporary);
  }
  return { key: decodeKey(readFileSync(path, 'utf8'), `the webhook key file ${path}`), source: 'development key file', file: path };
}
