// Which of many needles occur in a large buffer, in one pass over it per needle length: a
// rolling hash (Rabin-Karp) of each window, a bitmap of the needles' hashes to skip most
// windows, and the bytes compared where a hash matches. The check of secrets at rest
// searched each needle in turn (Buffer.includes): after a large round, 1,871 secrets in 8
// encodings each over a 199 MB database, 15,000 passes that ran 10 minutes, past its timeout.
const BASE = 257;
/** The largest bitmap, 2 MB: few windows of a long haystack reach the byte comparison. */
const MAX_BITMAP_BITS = 1 << 24;

interface LengthGroup {
  length: number;
  /** BASE^(length-1) mod 2^32: the weight of the byte leaving the window. */
  outWeight: number;
  byHash: Map<number, number[]>;
  bitmap: Uint8Array;
  /** The bitmap's bits less one: a hash's low bits pick its bit. */
  mask: number;
}

/** About 64 bits per needle of the length, a power of two from 2^10 to 2^24. */
function bitmapBits(needles: number): number {
  let bits = 1 << 10;
  while (bits < needles * 64 && bits < MAX_BITMAP_BITS) bits *= 2;
  return bits;
}

function hashOf(bytes: Uint8Array, from: number, length: number): number {
  let h = 0;
  for (let i = from; i < from + length; i++) h = (Math.imul(h, BASE) + bytes[i]!) >>> 0;
  return h;
}

function power(exponent: number): number {
  let p = 1;
  for (let i = 0; i < exponent; i++) p = Math.imul(p, BASE) >>> 0;
  return p;
}

/** The indexes (into `needles`) of the needles found in `haystack`. Empty needles are never found. */
export function foundNeedles(haystack: Uint8Array, needles: readonly Uint8Array[]): Set<number> {
  const searchable = (needle: Uint8Array) => needle.length > 0 && needle.length <= haystack.length;
  const perLength = new Map<number, number>();
  for (const needle of needles) if (searchable(needle)) perLength.set(needle.length, (perLength.get(needle.length) ?? 0) + 1);
  const groups = new Map<number, LengthGroup>();
  needles.forEach((needle, index) => {
    if (!searchable(needle)) return;
    let group = groups.get(needle.length);
    if (!group) {
      const bits = bitmapBits(perLength.get(needle.length)!);
      group = { length: needle.length, outWeight: power(needle.length - 1), byHash: new Map(), bitmap: new Uint8Array(bits / 8), mask: bits - 1 };
      groups.set(needle.length, group);
    }
    const h = hashOf(needle, 0, needle.length);
    const same = group.byHash.get(h);
    if (same) same.push(index);
    else group.byHash.set(h, [index]);
    const bit = h & group.mask;
    group.bitmap[bit >>> 3]! |= 1 << (bit & 7);
  });
  const found = new Set<number>();
  for (const { length, outWeight, byHash, bitmap, mask } of groups.values()) {
    let h = hashOf(haystack, 0, length - 1);
    for (let end = length - 1; end < haystack.length; end++) {
      h = (Math.imul(h, BASE) + haystack[end]!) >>> 0;
      const bit = h & mask;
      if (bitmap[bit >>> 3]! & (1 << (bit & 7))) {
        const start = end - length + 1;
        for (const index of byHash.get(h) ?? []) {
          if (found.has(index)) continue;
          const needle = needles[index]!;
          let same = true;
          for (let k = 0; k < length && same; k++) same = haystack[start + k] === needle[k];
          if (same) found.add(index);
        }
      }
      // The byte at the window's start leaves before the next one enters.
      h = (h - Math.imul(haystack[end - length + 1]!, outWeight)) >>> 0;
    }
  }
  return found;
}
