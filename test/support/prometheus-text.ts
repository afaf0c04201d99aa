// A strict reader of the Prometheus text exposition format (version 0.0.4), after its rules
// (prometheus.io/docs/instrumenting/exposition_formats): prom-client writes this format but
// ships no parser, so scrapes in tests are checked here. Throws on the first line that breaks
// a rule; returns every sample with its family's type.
const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = ['counter', 'gauge', 'histogram', 'summary', 'untyped'];

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Exposition {
  types: Map<string, string>;
  samples: Sample[];
  /** The value of one sample, by name and (a subset of) its labels; undefined when absent. */
  value(name: string, labels?: Record<string, string>): number | undefined;
}

/** As Go's ParseFloat reads it (the format's rule): NaN and Inf in any case. */
function parseValue(text: string, where: string): number {
  if (/^nan$/i.test(text)) return NaN;
  if (/^\+?inf(inity)?$/i.test(text)) return Infinity;
  if (/^-inf(inity)?$/i.test(text)) return -Infinity;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) throw new Error(`${where}: "${text}" is not a float`);
  return Number(text);
}

function parseLabels(text: string, where: string): Record<string, string> {
  const labels: Record<string, string> = {};
  let i = 0;
  while (i < text.length) {
    const eq = text.indexOf('=', i);
    if (eq < 0) throw new Error(`${where}: label without "="`);
    const name = text.slice(i, eq).trim();
    if (!LABEL_NAME.test(name) || name.startsWith('__')) throw new Error(`${where}: bad label name "${name}"`);
    if (name in labels) throw new Error(`${where}: label "${name}" repeated`);
    if (text[eq + 1] !== '"') throw new Error(`${where}: label value of "${name}" not quoted`);
    let value = '';
    let j = eq + 2;
    for (; j < text.length && text[j] !== '"'; j++) {
      if (text[j] === '\\') {
        const escaped = text[++j];
        if (escaped === 'n') value += '\n';
        else if (escaped === '\\' || escaped === '"') value += escaped;
        else throw new Error(`${where}: bad escape "\\${escaped}" in a label value`);
      } else value += text[j];
    }
    if (text[j] !== '"') throw new Error(`${where}: unterminated label value`);
    labels[name] = value;
    i = j + 1;
    if (text[i] === ',') i++;
    else if (i < text.length) throw new Error(`${where}: expected "," between labels`);
  }
  return labels;
}

export function parsePrometheusText(text: string): Exposition {
  if (text.length > 0 && !text.endsWith('\n')) throw new Error('the exposition must end with a line feed');
  const types = new Map<string, string>();
  const helps = new Set<string>();
  const samples: Sample[] = [];
  const seen = new Set<string>();
  // Every sample name and each of its prefixes that ends before a "_": a TYPE line for any of
  // them comes after samples of its family (a scrape is thousands of lines: no rescans).
  const sampledPrefixes = new Set<string>();
  const noteSampled = (name: string) => {
    sampledPrefixes.add(name);
    for (let i = name.indexOf('_'); i > 0; i = name.indexOf('_', i + 1)) sampledPrefixes.add(name.slice(0, i));
  };
  const familyOf = (name: string) => {
    for (const suffix of ['_bucket', '_sum', '_count', '']) {
      const base = suffix ? name.slice(0, -suffix.length) : name;
      if (name.endsWith(suffix) && types.has(base) && (suffix === '' || ['histogram', 'summary'].includes(types.get(base)!))) return base;
    }
    return undefined;
  };
  text.split('\n').forEach((line, index) => {
    const where = `line ${index + 1}`;
    if (line === '') return;
    if (line.startsWith('#')) {
      const match = /^# (HELP|TYPE) (\S+)(?: (.*))?$/.exec(line);
      if (!match) return; // a plain comment
      const [, kind, name, rest] = match;
      if (!METRIC_NAME.test(name!)) throw new Error(`${where}: bad metric name "${name}"`);
      if (kind === 'TYPE') {
        if (types.has(name!)) throw new Error(`${where}: second TYPE for ${name}`);
        if (sampledPrefixes.has(name!)) throw new Error(`${where}: TYPE for ${name} after its samples`);
        if (!TYPES.includes(rest ?? '')) throw new Error(`${where}: unknown type "${rest}"`);
        types.set(name!, rest!);
      } else {
        if (helps.has(name!)) throw new Error(`${where}: second HELP for ${name}`);
        helps.add(name!);
      }
      return;
    }
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)(?: (-?\d+))?$/.exec(line);
    if (!match) throw new Error(`${where}: not a sample: ${line.slice(0, 200)}`);
    const [, name, labelText, valueText] = match;
    const labels = labelText ? parseLabels(labelText, where) : {};
    const key = `${name}${JSON.stringify(Object.entries(labels).sort())}`;
    if (seen.has(key)) throw new Error(`${where}: duplicate sample ${key}`);
    seen.add(key);
    const family = familyOf(name!);
    if (family && types.get(family) === 'histogram' && name!.endsWith('_bucket') && !('le' in labels)) throw new Error(`${where}: histogram bucket without "le"`);
    samples.push({ name: name!, labels, value: parseValue(valueText!, where) });
    noteSampled(name!);
  });
  // Histograms: cumulative buckets ending in +Inf, which equals _count.
  const labelKey = (labels: Record<string, string>) => JSON.stringify(Object.entries(labels).sort());
  const byName = new Map<string, Sample[]>();
  for (const sample of samples) {
    if (!byName.has(sample.name)) byName.set(sample.name, []);
    byName.get(sample.name)!.push(sample);
  }
  for (const [family, type] of types) {
    if (type !== 'histogram') continue;
    const series = new Map<string, Sample[]>();
    for (const s of byName.get(`${family}_bucket`) ?? []) {
      const { le: _le, ...rest } = s.labels;
      const key = labelKey(rest);
      if (!series.has(key)) series.set(key, []);
      series.get(key)!.push(s);
    }
    const counts = new Map((byName.get(`${family}_count`) ?? []).map((s) => [labelKey(s.labels), s]));
    for (const [key, buckets] of series) {
      const les = buckets.map((b) => parseValue(b.labels.le!, family));
      for (let i = 1; i < buckets.length; i++) {
        if (!(les[i]! > les[i - 1]!) || buckets[i]!.value < buckets[i - 1]!.value) throw new Error(`${family}${key}: buckets not cumulative`);
      }
      if (les.at(-1) !== Infinity) throw new Error(`${family}${key}: no +Inf bucket`);
      if (counts.get(key)?.value !== buckets.at(-1)!.value) throw new Error(`${family}${key}: _count differs from the +Inf bucket`);
    }
  }
  return {
    types,
    samples,
    value(name, labels = {}) {
      return samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;
    },
  };
}
