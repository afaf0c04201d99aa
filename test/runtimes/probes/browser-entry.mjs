// Chromium: the page, a dedicated Worker started from this same bundle, and the SDK.
import * as verifier from '@ofctx/verifier';
import * as sdk from '@ofctx/sdk';
import vectors from './vectors.json';
import { verifierChecks } from './verifier-checks.mjs';
import { sdkChecks } from './sdk-checks.mjs';

const inWorker = typeof WorkerGlobalScope !== 'undefined' && self instanceof WorkerGlobalScope;
if (inWorker) {
  self.onmessage = async () => self.postMessage(await verifierChecks(verifier, vectors, { sync: false }));
} else {
  globalThis.probe = {
    page: () => verifierChecks(verifier, vectors, { sync: false }),
    worker: (bundleUrl) =>
      new Promise((resolve, reject) => {
        const worker = new Worker(bundleUrl, { type: 'module' });
        worker.onmessage = (event) => resolve(event.data);
        worker.onerror = (event) => reject(new Error(event.message || 'the worker failed'));
        worker.postMessage('run');
      }),
    sdk: (target) => sdkChecks(sdk, target),
    /** What a call from this page ends in: the error's name and message, or `answered`. */
    sdkOutcome: async (target) => {
      try {
        await sdk.createClient({ baseUrl: target.baseUrl, clientId: target.clientId, clientSecret: target.clientSecret }).facility(target.orgId, target.facilityId).residents.list();
        return 'answered';
      } catch (error) {
        return `${error.name}: ${error.message}`;
      }
    },
  };
}
