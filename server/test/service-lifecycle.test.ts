// `npm start` as an operator runs it: migrates an empty database, answers the probes, and
// on SIGTERM finishes in-flight requests and exits 0.
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createTestDatabase, type TestDatabase } from '../../test/support/database.js';
import { call } from '../../test/support/http.js';
import { TEST_WEBHOOK_ENCRYPTION_KEY } from '../../test/support/service.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('the service process', function () {
  this.timeout(60_000);
  let database: TestDatabase;
  let child: ChildProcess;
  let output = '';
  let baseUrl: string;

  before(async () => {
    database = await createTestDatabase();
    // Port 0: the service binds a port of its own and logs its URL. A port found free here
    // could be taken by another test process during the build, before the service binds it.
    // detached: its own process group, so clean-up can end npm and the service together.
    child = spawn('npm', ['start'], { cwd: ROOT, detached: true, env: { ...process.env, DATABASE_URL: database.url, PORT: '0', HOST: '127.0.0.1', WEBHOOK_ENCRYPTION_KEY: TEST_WEBHOOK_ENCRYPTION_KEY }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (c) => (output += c));
    child.stderr!.on('data', (c) => (output += c));
    const started = Date.now();
    while (!/listening/.test(output)) {
      if (Date.now() - started > 45_000 || child.exitCode !== null) throw new Error(`service did not start:\n${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const listening = output.split('\n').find((l) => l.includes('"msg":"ofctx integration API listening"'))!;
    baseUrl = (JSON.parse(listening.slice(listening.indexOf('{'))) as { url: string }).url;
  });
  after(async () => {
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
    await database.drop();
  });

  it('migrates an empty database and answers the liveness and readiness probes', async () => {
    expect((await call(baseUrl, 'GET', '/healthz')).body).to.deep.equal({ status: 'ok' });
    expect((await call(baseUrl, 'GET', '/readyz')).body).to.deep.equal({ status: 'ok' });
  });

  it('logs structured JSON lines', () => {
    const line = output.split('\n').find((l) => l.includes('"msg":"ofctx integration API listening"'));
    expect(line, output).to.be.a('string');
    expect(JSON.parse(line!.slice(line!.indexOf('{')))).to.include({ service: 'ofctx', level: 30 });
  });

  it('stops gracefully on SIGTERM with exit code 0', async () => {
    // npm forwards the signal to the service (its script execs node), and ends with it.
    const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    child.kill('SIGTERM');
    const { code, signal } = await exited;
    expect(code === 0 || signal === 'SIGTERM', `code ${code}, signal ${signal}`).to.equal(true);
    expect(output).to.include('"msg":"shutting down: finishing in-flight requests"');
    expect(output).to.include('"msg":"stopped"');
  });
});
