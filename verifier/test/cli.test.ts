import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { goldenVector, vectors } from './support/signature-vectors.js';
import { secret, signedDelivery } from './support/signed-delivery.js';

const cliPath = fileURLToPath(new URL('../src/cli.ts', import.meta.url));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI from source (`node --conditions=ofctx-source --import tsx verifier/src/cli.ts`, as .mocharc.json runs the tests) with stdin. */
function runCli(args: string[], stdin: string | Uint8Array, env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const { OFCTX_SIGNING_SECRET: _, ...inherited } = process.env;
    const child = spawn(process.execPath, ['--conditions=ofctx-source', '--import', 'tsx', cliPath, ...args], { env: { ...inherited, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

/** What POST /webhooks/{id}/test answers for a delivery. */
function testOperationAnswer(delivery = signedDelivery()) {
  return { data: { body: delivery.body, signature: delivery.headers['X-Service-Signature'], signature_header: 'X-Service-Signature', headers: delivery.headers }, meta: null, error: null };
}

describe('ofctx-verify CLI', () => {
  it('exits 0 for the golden vector given as a raw body with --signature', async () => {
    const run = await runCli(['verify', '--secret', goldenVector.secret, '--signature', goldenVector.signature], goldenVector.body);
    expect(run.code, run.stderr).to.equal(0);
    expect(run.stdout).to.equal('valid: resident.admitted delivery 4b5c6d7e-8f9a-4b0c-9d1e-2f3a4b5c6d7e (event 8a9b0c1d-2e3f-4a5b-8c7d-9e0f1a2b3c4d)\n');
  });

  it('exits 0 for the test operation answer, whole or its data, with the secret from OFCTX_SIGNING_SECRET', async () => {
    const answer = testOperationAnswer();
    for (const stdin of [JSON.stringify(answer, null, 2), JSON.stringify(answer.data)]) {
      const run = await runCli([], stdin, { OFCTX_SIGNING_SECRET: secret });
      expect(run.code, run.stderr).to.equal(0);
      expect(run.stdout).to.include(answer.data.headers['X-Service-Delivery-Id']);
    }
  });

  it('exits 1 with the reason on stderr for a tampered body', async () => {
    const tampered = Buffer.from(goldenVector.body);
    tampered[10] = tampered[10]! ^ 1;
    const run = await runCli(['--secret', goldenVector.secret, '--signature', goldenVector.signature], tampered);
    expect(run.code).to.equal(1);
    expect(run.stderr).to.match(/^invalid \(signature_mismatch\): X-Service-Signature does not match/);
  });

  it('exits 1 and names the cause for a body with an added trailing newline', async () => {
    const run = await runCli(['--secret', goldenVector.secret, '--signature', goldenVector.signature], `${goldenVector.body_utf8}\n`);
    expect(run.code).to.equal(1);
    expect(run.stderr).to.match(/trailing newline/);
  });

  it('exits 1 for a test operation answer checked with the wrong secret, or with altered headers', async () => {
    const answer = testOperationAnswer();
    expect((await runCli(['--secret', `${secret}x`], JSON.stringify(answer))).code).to.equal(1);
    answer.data.headers['X-Service-Delivery-Id'] = '00000000-0000-4000-8000-000000000000';
    const run = await runCli(['--secret', secret], JSON.stringify(answer));
    expect(run.code).to.equal(1);
    expect(run.stderr).to.match(/header_mismatch/);
  });

  it('exits 1 for a correctly signed body that is not a delivery envelope', async () => {
    const vector = vectors.find((v) => v.name === 'escaped slashes')!;
    const run = await runCli(['--secret', vector.secret, '--signature', vector.signature], vector.body);
    expect(run.code).to.equal(1);
    expect(run.stderr).to.match(/invalid_envelope/);
  });

  it('exits 2 without a secret, for unknown options, or without a signature for a raw body', async () => {
    const noSecret = await runCli(['verify'], goldenVector.body);
    expect(noSecret.code).to.equal(2);
    expect(noSecret.stderr).to.match(/no secret: pass --secret or set OFCTX_SIGNING_SECRET/);
    expect((await runCli(['--secret', 's', '--frobnicate'], '')).code).to.equal(2);
    expect((await runCli(['verify', 'extra', '--secret', 's'], '')).code).to.equal(2);
    const rawWithoutSignature = await runCli(['--secret', goldenVector.secret], goldenVector.body);
    expect(rawWithoutSignature.code).to.equal(2);
    expect(rawWithoutSignature.stderr).to.match(/pass its signature with --signature/);
  });

  it('prints the signature of stdin with sign', async () => {
    for (const vector of [goldenVector, vectors.find((v) => v.name === 'invalid UTF-8 bytes')!]) {
      const run = await runCli(['sign', '--secret', vector.secret], vector.body);
      expect(run.code).to.equal(0);
      expect(run.stdout).to.equal(`${vector.signature}\n`);
    }
  });

  it('prints usage with --help and exits 0', async () => {
    const run = await runCli(['--help'], '');
    expect(run.code).to.equal(0);
    expect(run.stdout).to.match(/^Usage:/);
  });
});
