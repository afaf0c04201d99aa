import { summarizeCpuProfile } from './bench/cpu-profile.js';
const s = summarizeCpuProfile(process.argv[2]!, undefined, 40);
console.log('busy', s.busyMs, 'idle%', s.idlePercent.toFixed(1));
for (const a of s.byArea.slice(0, 25)) console.log(a.name.padEnd(40), a.selfPercent.toFixed(1), a.inclusivePercent.toFixed(1));
for (const f of s.hottestFunctions) console.log(f.selfPercent.toFixed(1).padStart(5), f.area.padEnd(30), f.name);
