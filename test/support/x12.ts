// X12 005010X279A1 271 interchanges for tests and benchmarks: an envelope around subscriber
// loops, with SE/GE/IEA counts and control numbers right (tests break them on purpose).
export interface Loop271 {
  trace?: string;
  memberId: string;
  /** EB01 codes. */
  eligibility?: string[];
  /** DTP*291 RD8 range. */
  plan?: [string, string];
  /** AAA03 reject reason. */
  reject?: string;
  payer?: string;
  /** Further segments of the loop (EB, MSG...), as written, after its EB01 codes. */
  segments?: string[];
}

export function interchange271(loops: Loop271[], control = 905, rawLoops: string[][] = []): string {
  const tx = ['ST*271*0001*005010X279A1', 'BHT*0022*11*10001234*20260115*0830', 'HL*1**20*1', 'NM1*PR*2*MEDICARE PART A*****PI*CMS', 'HL*2*1*21*1', 'NM1*1P*2*MAPLE GROVE NURSING HOME*****XX*1234567893'];
  loops.forEach((loop, i) => {
    tx.push(`HL*${i + 3}*2*22*0`);
    if (loop.trace) tx.push(`TRN*2*${loop.trace}*9877281234`);
    tx.push(`NM1*IL*1*OKAFOR*ADAEZE****MI*${loop.memberId}`);
    if (loop.reject) tx.push(`AAA*Y**${loop.reject}*C`);
    if (loop.plan) tx.push(`DTP*291*RD8*${loop.plan[0]}-${loop.plan[1]}`);
    for (const code of loop.eligibility ?? []) tx.push(`EB*${code}*IND*30^1`);
    tx.push(...(loop.segments ?? []));
    if (loop.payer) tx.push(`NM1*PR*2*${loop.payer}*****PI*P1`);
  });
  // Loops given segment by segment (from HL on), numbered after the others.
  rawLoops.forEach((segments, i) => tx.push(`HL*${loops.length + i + 3}*2*22*0`, ...segments.filter((s) => !s.startsWith('HL*'))));
  tx.push(`SE*${tx.length + 1}*0001`);
  const id = String(control).padStart(9, '0');
  return [`ISA*00*          *00*          *ZZ*MEDICAREPAYER  *ZZ*OFCTXSUBMITTER *260115*0830*^*00501*${id}*0*P*:`, `GS*HB*MEDICAREPAYER*OFCTX*20260115*0830*${control}*X*005010X279A1`, ...tx, `GE*1*${control}`, `IEA*1*${id}`].join('~\n') + '~\n';
}
