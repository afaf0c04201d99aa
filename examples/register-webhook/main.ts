// register-webhook: registers a callback URL (by default examples/webhook-receiver's) for an
// organization's events with @ofctx/sdk, prints the signing secret ONCE, then asks the API
// for a signed test delivery and verifies it locally with @ofctx/verifier.
//
//   OFCTX_CLIENT_ID=... OFCTX_CLIENT_SECRET=... OFCTX_ORG_ID=... \
//   WEBHOOK_CALLBACK_URL=http://localhost:3000/hooks/ofctx npm run -s example:register-webhook [-- --json]
//
// An http:// or localhost callback is refused unless the service runs with
// WEBHOOK_ALLOW_PRIVATE_TARGETS=1 (development only); production callbacks are public https.
import { parseArgs } from 'node:util';
import { createClient, OfctxError } from '@ofctx/sdk';
import { WebhookVerificationError } from '@ofctx/verifier';
import { ConfigError, configFromEnv } from './config.js';
import { checkTestDelivery } from './check-test-delivery.js';

const USAGE = `usage: register-webhook [--json]
environment: OFCTX_BASE_URL (default http://localhost:8080), OFCTX_CLIENT_ID, OFCTX_CLIENT_SECRET, OFCTX_ORG_ID,
  WEBHOOK_CALLBACK_URL (default http://localhost:3000/hooks/ofctx), WEBHOOK_EVENT_TYPES (comma-separated), WEBHOOK_DESCRIPTION`;

const SECRET_WARNING =
  'This signing secret is shown ONCE and cannot be read again: store it in your secret manager now, ' +
  'and give it to the receiver as OFCTX_SIGNING_SECRET. Anyone holding it can forge deliveries.';

async function main(): Promise<number> {
  let json: boolean;
  let config;
  try {
    json = parseArgs({ options: { json: { type: 'boolean', default: false } } }).values.json ?? false;
    config = configFromEnv(process.env);
  } catch (error) {
    console.error(`register-webhook: ${(error as Error).message}\n${USAGE}`);
    return 2;
  }

  const ofctx = createClient({
    baseUrl: config.baseUrl,
    clientId: config.clientId,
    clientSecret: config.clientSecret,
    scopes: ['webhooks.manage'],
    userAgent: 'ofctx-example-register-webhook/1.0',
  });
  const webhooks = ofctx.webhooks(config.orgId);

  try {
    // Not retried by the SDK (a retry after a lost answer could register twice): if this
    // throws a ConnectionError, list the subscriptions before trying again.
    const subscription = await webhooks.register({ callbackUrl: config.callbackUrl, eventTypes: config.eventTypes, description: config.description });
    const { signing_secret: signingSecret, ...record } = subscription;

    // A test delivery of the first subscribed type, built and signed by the API as a real one would be (it is not sent).
    const eventType = config.eventTypes[0]!;
    const test = await webhooks.test(subscription.id, eventType);
    let verified;
    try {
      verified = checkTestDelivery(test, signingSecret);
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      console.error(`register-webhook: the test delivery did NOT verify (${error.code}): ${error.message}`);
      return 1;
    }

    console.error(`WARNING: ${SECRET_WARNING}`);
    if (json) {
      console.log(JSON.stringify({ subscription: record, signing_secret: signingSecret, test_delivery: { verified: true, event_type: verified.event_type, delivery_id: verified.delivery_id } }));
    } else {
      console.log(
        [
          `Registered subscription ${record.id} (${record.status}) for ${record.event_types.join(', ')}`,
          `  callback: ${record.callback_url}`,
          '',
          `  signing secret: ${signingSecret}`,
          '',
          `Test delivery: ${verified.event_type} delivery ${verified.delivery_id} verified locally with @ofctx/verifier (${test.signatureHeader}: ${test.signature}).`,
          `Start the receiver with:  OFCTX_SIGNING_SECRET='${signingSecret}' npm run -s example:webhook-receiver`,
        ].join('\n'),
      );
    }
    return 0;
  } catch (error) {
    if (!(error instanceof OfctxError)) throw error;
    const details = error.details?.map((d) => `${d.field} ${d.issue}`).join('; ');
    console.error(`register-webhook: ${error.message}${details ? ` [${details}]` : ''} (${error.status ?? 'no answer'} ${error.code}${error.requestId ? `, request ${error.requestId}` : ''})`);
    if (error.code === 'callback_url_not_allowed') {
      console.error('register-webhook: a local http:// callback needs the service started with WEBHOOK_ALLOW_PRIVATE_TARGETS=1 (development only).');
    }
    return 1;
  }
}

process.exitCode = await main();
