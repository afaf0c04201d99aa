// List throughput: GET .../coverage?page_size=50 through the whole service (token check,
// contract routing and validation, tenancy, SQLite, audit-trail insert, envelope) on a
// facility of 10,000 residents, against a bare node:http server returning the same bytes
// from memory in its own process (the physical limit of this machine), plus /healthz
// through the whole stack (the framework floor). Then the same list again with the server
// under --cpu-prof, to say where the time goes.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChildScript } from './child-script.js';
import { summarizeCpuProfile, type ProfileSummary } from './cpu-profile.js';
import { DEFAULT_CONNECTIONS, measureLoad, type LoadResult } from './load.js';
import { freePort } from './ports.js';
import { seededDatabase, workingCopy } from './seeded-database.js';
import { accessToken, startServiceProcess } from './service-process.js';
import type { BenchSettings } from './settings.js';

export const LIST_RESIDENTS = 10_000;

export interface ListThroughputResult {
  residents: number;
  coverageRows: number;
  responseBytes: number;
  connections: number;
  coverageList: LoadResult;
  healthz: LoadResult;
  bare: LoadResult;
  profile?: ProfileSummary | undefined;
  /** Requests per second while profiled (the profiler slows the server a little). */
  profiledRequestsPerSecond?: number | undefined;
}

/** The response headers worth replaying; hop-by-hop and per-response ones are the server's own business. */
const NOT_REPLAYED = new Set(['connection', 'keep-alive', 'transfer-encoding', 'date', 'content-length']);

export async function listThroughput(settings: BenchSettings): Promise<ListThroughputResult> {
  const { log, durationSeconds, warmupSeconds } = settings;
  const seeded = await seededDatabase({ residents: LIST_RESIDENTS, vitalRounds: 2 }, log);
  const copy = workingCopy(seeded);
  const path = `/api/v1/ofctx/${seeded.orgId}/${seeded.facilityId}/coverage?page_size=50`;
  let recorded: { status: number; headers: Record<string, string>; body: string };
  let coverageList: LoadResult;
  let healthz: LoadResult;
  let profile: ProfileSummary | undefined;
  let profiledRequestsPerSecond: number | undefined;
  const loadOf = (url: string, headers: Record<string, string>, pid: number) => measureLoad({ url, headers, durationSeconds, warmupSeconds, pid });
  try {
    const service = await startServiceProcess({ databaseUrl: copy.databaseUrl });
    try {
      const headers = { authorization: `Bearer ${await accessToken(service.url, seeded.client)}`, accept: 'application/json' };
      const first = await fetch(service.url + path, { headers });
      recorded = { status: first.status, headers: {}, body: await first.text() };
      first.headers.forEach((value, name) => {
        if (!NOT_REPLAYED.has(name)) recorded.headers[name] = value;
      });
      const page = JSON.parse(recorded.body) as { data: unknown[] };
      if (first.status !== 200 || page.data.length !== 50) throw new Error(`unexpected answer ${first.status}: ${recorded.body.slice(0, 300)}`);
      log(`  coverage list through the service (${Buffer.byteLength(recorded.body)} bytes a page)`);
      coverageList = await loadOf(service.url + path, headers, service.pid);
      log(`  /healthz through the service`);
      healthz = await loadOf(`${service.url}/healthz`, {}, service.pid);
    } finally {
      await service.stop();
    }

    if (settings.profile) {
      const profileDir = mkdtempSync(join(tmpdir(), 'ofctx-bench-profile-'));
      try {
        log(`  coverage list again, server under --cpu-prof`);
        let loadEnded = 0;
        const profiled = await startServiceProcess({ databaseUrl: copy.databaseUrl, cpuProfileDir: profileDir });
        try {
          const headers = { authorization: `Bearer ${await accessToken(profiled.url, seeded.client)}`, accept: 'application/json' };
          profiledRequestsPerSecond = (await loadOf(profiled.url + path, headers, profiled.pid)).requestsPerSecond;
        } finally {
          loadEnded = performance.now();
          await profiled.stop();
        }
        // Only the measured load: not start-up (module loading), warm-up or shutdown.
        const window = { lengthMs: durationSeconds * 1000, endedMsBeforeExit: performance.now() - loadEnded };
        const file = readdirSync(profileDir).find((name) => name.endsWith('.cpuprofile'));
        if (file) profile = summarizeCpuProfile(join(profileDir, file), window);
        else log('  ! no CPU profile was written');
      } finally {
        rmSync(profileDir, { recursive: true, force: true });
      }
    }
  } finally {
    copy.remove();
  }

  const scratch = mkdtempSync(join(tmpdir(), 'ofctx-bench-bare-'));
  let bare: LoadResult;
  try {
    const responseFile = join(scratch, 'response.json');
    writeFileSync(responseFile, JSON.stringify(recorded));
    const port = await freePort();
    const server = await startChildScript('scripts/bench/targets/bare-http-server.ts', [responseFile, String(port)]);
    try {
      log(`  the same bytes from a bare node:http server`);
      bare = await loadOf(`http://127.0.0.1:${port}${path}`, {}, server.pid);
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }

  return {
    residents: seeded.counts.residents,
    coverageRows: seeded.counts.coverage,
    responseBytes: Buffer.byteLength(recorded.body),
    connections: DEFAULT_CONNECTIONS,
    coverageList,
    healthz,
    bare,
    profile,
    profiledRequestsPerSecond,
  };
}
