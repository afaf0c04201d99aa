// Where a server's CPU time went, from the V8 profile `node --cpu-prof` writes: time by
// package (node_modules/<name>) or server folder, both "self" (in its own code) and
// "inclusive" (in it or anything it called), plus the hottest functions. Native frames
// (better-sqlite3's C++, crypto, the JSON parser) have no URL and are charged to the
// nearest caller that has one, so "better-sqlite3" includes the SQLite engine itself.
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  startTime: number;
  endTime: number;
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileShare {
  name: string;
  /** Percent of busy time (idle excluded). */
  selfPercent: number;
  inclusivePercent: number;
}

export interface ProfileSummary {
  busyMs: number;
  idlePercent: number;
  byArea: ProfileShare[];
  hottestFunctions: Array<{ name: string; area: string; selfPercent: number }>;
}

const SPECIAL = new Set(['(garbage collector)', '(program)', '(idle)', '(root)']);

/** node_modules/<pkg> (scoped too), server/src/<folder>, the SDK or verifier, or Node itself. */
function areaOfUrl(url: string): string | undefined {
  if (url === '') return undefined;
  const modules = url.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const rest = url.slice(modules + '/node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  const server = /\/server\/src\/([^/]+)\//.exec(url) ?? /\/server\/src\/([^/]+)\.ts/.exec(url);
  if (server) return `server/src/${server[1]}`;
  if (url.startsWith('node:')) return 'node core (http, streams, timers)';
  return 'other';
}

/**
 * Which part of the process's life to count: the `lengthMs` that ended `endedMsBeforeExit`
 * before the process exited (the measured load, without start-up, warm-up or shutdown).
 */
export interface ProfileWindow {
  lengthMs: number;
  endedMsBeforeExit: number;
}

export function summarizeCpuProfile(file: string, window?: ProfileWindow, top = 12): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  // Sample times, in the profile's microseconds.
  const windowEnd = window ? profile.endTime - window.endedMsBeforeExit * 1000 : Infinity;
  const windowStart = window ? windowEnd - window.lengthMs * 1000 : -Infinity;
  let clock = profile.startTime;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

  // Each node's area: its own URL's, else (native code) its nearest caller's.
  const areaCache = new Map<number, string>();
  const areaOf = (id: number): string => {
    const cached = areaCache.get(id);
    if (cached) return cached;
    const node = byId.get(id)!;
    const name = node.callFrame.functionName;
    let area: string;
    if (SPECIAL.has(name)) area = name === '(garbage collector)' ? 'garbage collector' : name === '(idle)' ? 'idle' : 'V8/native, unattributed';
    else area = areaOfUrl(node.callFrame.url) ?? (parent.has(id) ? areaOf(parent.get(id)!) : 'V8/native, unattributed');
    areaCache.set(id, area);
    return area;
  };

  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const functionSelf = new Map<string, { area: string; ms: number }>();
  let idleMs = 0;
  let busyMs = 0;
  profile.samples.forEach((sampleId, index) => {
    clock += profile.timeDeltas[index] ?? 0;
    if (clock < windowStart || clock > windowEnd) return;
    const ms = (profile.timeDeltas[index] ?? 0) / 1000;
    const area = areaOf(sampleId);
    if (area === 'idle') {
      idleMs += ms;
      return;
    }
    busyMs += ms;
    self.set(area, (self.get(area) ?? 0) + ms);
    const seen = new Set<string>();
    for (let id: number | undefined = sampleId; id !== undefined; id = parent.get(id)) {
      const a = areaOf(id);
      if (!seen.has(a)) {
        seen.add(a);
        inclusive.set(a, (inclusive.get(a) ?? 0) + ms);
      }
    }
    const frame = byId.get(sampleId)!.callFrame;
    const where = frame.url ? `${frame.url.replace(/^.*\/(node_modules|server\/src)\//, '$1/')}:${frame.lineNumber + 1}` : 'native';
    const key = `${frame.functionName || '(anonymous)'} ${where}`;
    const entry = functionSelf.get(key) ?? { area, ms: 0 };
    entry.ms += ms;
    functionSelf.set(key, entry);
  });

  const percent = (ms: number) => (busyMs === 0 ? 0 : (100 * ms) / busyMs);
  const byArea = [...self.keys(), ...inclusive.keys()]
    .filter((name, i, all) => all.indexOf(name) === i && name !== '(root)')
    .map((name) => ({ name, selfPercent: percent(self.get(name) ?? 0), inclusivePercent: percent(inclusive.get(name) ?? 0) }))
    .filter((share) => share.selfPercent >= 0.5 || share.inclusivePercent >= 2)
    .sort((a, b) => b.selfPercent - a.selfPercent);
  const hottestFunctions = [...functionSelf]
    .sort((a, b) => b[1].ms - a[1].ms)
    .slice(0, top)
    .map(([name, { area, ms }]) => ({ name, area, selfPercent: percent(ms) }));
  return { busyMs, idlePercent: (100 * idleMs) / (idleMs + busyMs || 1), byArea, hottestFunctions };
}
