import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { backoffDelay, isRetrySafe, parseRetryAfter, sleep } from '../src/retry.js';

describe('retry rules', () => {
  describe('isRetrySafe', () => {
    // registerWebhook and rotateWebhookSecret create something on each call: a retried
    // rotation would replace the secret the lost answer carried, and end the overlap of the
    // first. A retried redeliver or recover would answer 409 or `queued: 0` for what the lost
    // answer did. ingestFhir and ingestX12 are for systems of record, never partners. A Bulk
    // Data kick-off by POST starts a new export each time (a retry would start a second one); so
    // does a FHIR Subscription's creation (a second Subscription).
    it('refuses registerWebhook, rotateWebhookSecret, redeliver, recover, ingestFhir, ingestX12, the $export POSTs and createFhirSubscription, and no other API operation of openapi.yaml', () => {
      const document = parse(readFileSync(new URL('../../openapi/openapi.yaml', import.meta.url), 'utf8'));
      const unsafe: string[] = [];
      for (const [path, item] of Object.entries<Record<string, { operationId?: string }>>(document.paths)) {
        // The operators' console is a browser's HTML forms, never the SDK's.
        if (path.startsWith('/console')) continue;
        const concrete = path.replace(/\{[^}]+\}/g, '6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60');
        for (const [method, operation] of Object.entries(item)) {
          if (operation.operationId && !isRetrySafe(method, concrete)) unsafe.push(operation.operationId);
        }
      }
      expect(unsafe.sort()).to.deep.equal(['createFhirSubscription', 'ingestFhir', 'ingestX12', 'kickOffFhirExportByPost', 'kickOffFhirGroupExportByPost', 'kickOffFhirPatientExportByPost', 'recoverWebhookDeliveries', 'redeliverWebhookDelivery', 'registerWebhook', 'rotateWebhookSecret']);
    });

    it('treats an unknown POST as unsafe', () => {
      expect(isRetrySafe('POST', '/api/v1/ofctx/x/webhooks/y/replay')).to.equal(false);
    });
  });

  describe('parseRetryAfter', () => {
    const now = Date.parse('2026-11-22T10:00:00Z');

    it('reads delay-seconds', () => {
      expect(parseRetryAfter('42', now)).to.equal(42_000);
    });

    it('reads an HTTP date relative to now', () => {
      expect(parseRetryAfter('Sun, 22 Nov 2026 10:00:07 GMT', now)).to.equal(7_000);
    });

    it('reads a date in the past as no wait', () => {
      expect(parseRetryAfter('Sun, 22 Nov 2026 09:00:00 GMT', now)).to.equal(0);
    });

    it('ignores an absent or unreadable value', () => {
      expect(parseRetryAfter(null, now)).to.equal(undefined);
      expect(parseRetryAfter('soon', now)).to.equal(undefined);
      expect(parseRetryAfter('-3', now)).to.equal(undefined);
    });
  });

  describe('backoffDelay', () => {
    it('grows exponentially up to the cap, scaled by the jitter', () => {
      const top = () => 0.999999;
      expect([0, 1, 2, 3, 4, 5].map((retry) => backoffDelay(retry, top, 500, 8_000))).to.deep.equal([499, 999, 1999, 3999, 7999, 7999]);
    });

    it('can wait nothing (full jitter)', () => {
      expect(backoffDelay(3, () => 0)).to.equal(0);
    });
  });

  describe('sleep', () => {
    it('rejects with the reason when the signal aborts', async () => {
      const controller = new AbortController();
      const reason = new Error('stop');
      const waiting = sleep(10_000, controller.signal);
      controller.abort(reason);
      const error = await waiting.then(() => undefined, (e: unknown) => e);
      expect(error).to.equal(reason);
    });
  });
});
