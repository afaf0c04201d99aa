// Signing secrets at rest: AES-256-GCM, versioned, bound to their subscription; where the
// key comes from, and refusing to start on PostgreSQL without one.
import { expect } from 'chai';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { loadConfig } from '../../src/config/config.js';
import { startService } from '../../src/service.js';
import { createLogger } from '../../src/logging/logger.js';
import { loadWebhookEncryptionKey, SigningSecretCipher } from '../../src/db/signing-secret-crypto.js';
import { newSigningSecret } from '../../src/webhooks/signing-secret.js';
import { developmentKeyPath } from '../../src/config/development-key-path.js';

describe('signing secrets at rest', () => {
  const cipher = new SigningSecretCipher(randomBytes(32));
  const subscriptionId = randomUUID();

  it('makes secrets of ofx_whs_ and 32 random bytes in base64url', () => {
    const secret = newSigningSecret();
    expect(secret).to.match(/^ofx_whs_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(secret.slice(8), 'base64url')).to.have.length(32);
    expect(newSigningSecret()).to.not.equal(secret);
  });

  it('encrypts to v1:iv:tag:ciphertext with a fresh IV each time, and decrypts back', () => {
    const secret = newSigningSecret();
    const stored = cipher.encrypt(secret, subscriptionId);
    expect(stored).to.match(/^v1:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]{22}:[A-Za-z0-9_-]+$/);
    expect(stored).to.not.include(secret.slice(8));
    expect(cipher.encrypt(secret, subscriptionId)).to.not.equal(stored);
    expect(cipher.decrypt(stored, subscriptionId)).to.equal(secret);
  });

  it('refuses a ciphertext moved to another subscription, tampered with, under another key or of an unknown version', () => {
    const stored = cipher.encrypt(newSigningSecret(), subscriptionId);
    expect(() => cipher.decrypt(stored, randomUUID())).to.throw();
    const [v, iv, tag, data] = stored.split(':');
    const flipped = Buffer.from(data!, 'base64url');
    flipped[0] = flipped[0]! ^ 1;
    expect(() => cipher.decrypt([v, iv, tag, flipped.toString('base64url')].join(':'), subscriptionId)).to.throw();
    expect(() => new SigningSecretCipher(randomBytes(32)).decrypt(stored, subscriptionId)).to.throw();
    // A shortened tag (4 bytes would be checked as 4 bytes without a fixed tag length).
    const shortTag = Buffer.from(tag!, 'base64url').subarray(0, 4).toString('base64url');
    expect(() => cipher.decrypt([v, iv, shortTag, data].join(':'), subscriptionId)).to.throw();
    expect(() => cipher.decrypt(stored.replace(/^v1:/, 'v9:'), subscriptionId)).to.throw(/unsupported signing secret format/);
    expect(() => new SigningSecretCipher(randomBytes(16))).to.throw(/32 bytes/);
  });

  describe('the encryption key', () => {
    let dir: string;
    beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'ofctx-key-'))));
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it('comes from WEBHOOK_ENCRYPTION_KEY (base64, 32 bytes) when set', () => {
      const key = randomBytes(32);
      const loaded = loadWebhookEncryptionKey('postgres://db.internal/ofctx', key.toString('base64'));
      expect(loaded.source).to.equal('WEBHOOK_ENCRYPTION_KEY');
      expect(loaded.key.equals(key)).to.equal(true);
      expect(() => loadWebhookEncryptionKey('sqlite:x.db', randomBytes(16).toString('base64'))).to.throw(/must be 32 bytes.*openssl rand -base64 32/);
    });

    it('on SQLite without one, is generated once beside the database file, mode 0600, and reused', () => {
      const file = join(dir, 'ofctx.db');
      const first = loadWebhookEncryptionKey(`sqlite:${file}`, undefined);
      expect(first.source).to.equal('development key file');
      expect(first.file).to.equal(developmentKeyPath(file));
      expect(statSync(developmentKeyPath(file)).mode & 0o777).to.equal(0o600);
      expect(Buffer.from(readFileSync(developmentKeyPath(file), 'utf8').trim(), 'base64')).to.have.length(32);
      const second = loadWebhookEncryptionKey(`sqlite:${file}`, undefined);
      expect(second.key.equals(first.key)).to.equal(true);
      expect(readdirSync(dir)).to.deep.equal(['ofctx.db.webhook-key']); // no stray temporary files
      expect(readFileSync(developmentKeyPath(file), 'utf8')).to.match(/^[A-Za-z0-9+/=]+\n$/);
    });

    it('on PostgreSQL without one, refuses with a clear error, and the service refuses to start', async () => {
      expect(() => loadWebhookEncryptionKey('postgres://db.internal/ofctx', undefined)).to.throw(/WEBHOOK_ENCRYPTION_KEY is required with PostgreSQL/);
      // Refused before the database is touched (nothing listens on port 1).
      const config = loadConfig({ DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', PORT: '0', HOST: '127.0.0.1' });
      let refusal: Error | undefined;
      await startService(config, { logger: createLogger('silent') }).catch((error: Error) => (refusal = error));
      expect(refusal?.message).to.match(/WEBHOOK_ENCRYPTION_KEY is required with PostgreSQL.*openssl rand -base64 32/);
    });
  });
});
