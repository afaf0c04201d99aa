// The verifier against the shared vectors (test/vectors/signatures.json), in whatever runtime
// imports this: Web Crypto always; node:crypto and the synchronous API where the runtime has
// them (Node, Bun, Deno), and a clear error from the synchronous API where it does not.
// Plain ESM with no imports of its own, so Node, Bun, Deno, workerd and Chromium run it as is.
export async function verifierChecks(verifier, vectors, { sync }) {
  const failures = [];
  let checks = 0;
  const check = (name, ok) => {
    checks++;
    if (ok !== true) failures.push(name);
  };
  const attempt = async (name, run) => {
    try {
      check(name, await run());
    } catch (error) {
      checks++;
      failures.push(`${name}: ${error && error.message}`);
    }
  };
  const bytes = (base64) => Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  for (const vector of vectors.cases) {
    const body = bytes(vector.body_base64);
    const tampered = body.length > 0 ? body.map((b, i) => (i === body.length - 1 ? b ^ 1 : b)) : new Uint8Array([32]);
    await attempt(`${vector.name}: signAsync (Web Crypto)`, async () => (await verifier.signAsync(body, vector.secret, { crypto: 'web' })) === vector.signature);
    await attempt(`${vector.name}: verifySignatureAsync (Web Crypto)`, () => verifier.verifySignatureAsync(body, vector.signature, vector.secret, { crypto: 'web' }));
    await attempt(`${vector.name}: a tampered body is refused (Web Crypto)`, async () => (await verifier.verifySignatureAsync(tampered, vector.signature, vector.secret, { crypto: 'web' })) === false);
    await attempt(`${vector.name}: signAsync (the runtime's default)`, async () => (await verifier.signAsync(body, vector.secret)) === vector.signature);
    if (sync) {
      await attempt(`${vector.name}: sign (node:crypto)`, () => verifier.sign(body, vector.secret) === vector.signature);
      await attempt(`${vector.name}: verifySignature (node:crypto)`, () => verifier.verifySignature(body, vector.signature, vector.secret));
      await attempt(`${vector.name}: a tampered body is refused (node:crypto)`, () => verifier.verifySignature(tampered, vector.signature, vector.secret) === false);
    }
  }
  if (!sync) {
    await attempt('the synchronous API explains itself where node:crypto is missing', () => {
      try {
        verifier.sign('{}', 'ofx_whs_x');
        return false;
      } catch (error) {
        return /Async|async/.test(String(error && error.message));
      }
    });
  }
  // A whole delivery through the Fetch adapter: the golden envelope, then a forged one.
  const golden = vectors.cases.find((v) => v.name === 'golden delivery envelope');
  const envelope = JSON.parse(golden.body_utf8);
  const request = (signature) =>
    new Request('https://receiver.example/hooks/ofctx', {
      method: 'POST',
      body: bytes(golden.body_base64),
      headers: { 'content-type': 'application/json', 'x-service-signature': signature, 'x-service-delivery-id': envelope.delivery_id, 'x-service-event-type': envelope.event_type },
    });
  await attempt('verifyFetchRequest accepts the golden delivery', async () => (await verifier.verifyFetchRequest(request(golden.signature), golden.secret)).delivery_id === envelope.delivery_id);
  await attempt('verifyFetchRequest refuses a forged signature with SignatureMismatchError', async () => {
    try {
      await verifier.verifyFetchRequest(request('0'.repeat(64)), golden.secret);
      return false;
    } catch (error) {
      return error instanceof verifier.SignatureMismatchError && error.status === 401;
    }
  });
  return { checks, failures };
}
