// The configuration catalogue (variables.ts) and what config.ts reads agree: every declared
// variable is read, names are unique, and each plain number shown as a default is the
// fallback config.ts uses (the compiler already refuses a read of an undeclared name).
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as config from '../../src/config/config.js';
import { CONFIG_GROUPS, CONFIG_VARIABLES } from '../../src/config/variables.js';

const source = readFileSync(fileURLToPath(new URL('../../src/config/config.ts', import.meta.url)), 'utf8');

/** Fallbacks of `integer(env, 'NAME', EXPR` and `positiveNumber(env, 'NAME', EXPR`, by name. */
function numericFallbacks(): Map<string, string> {
  const found = new Map<string, string>();
  for (const match of source.matchAll(/(?:integer|positiveNumber)\(env, '([A-Z0-9_]+)', ([^,)]+)/g)) found.set(match[1]!, match[2]!.trim());
  return found;
}

/** A fallback written as a product of literals and the module's exported constants, or null. */
function evaluate(expression: string): number | null {
  const factors = expression.split('*').map((factor) => factor.trim());
  let product = 1;
  for (const factor of factors) {
    if (/^[0-9][0-9_]*$/.test(factor)) product *= Number(factor.replace(/_/g, ''));
    else if (typeof (config as Record<string, unknown>)[factor] === 'number') product *= (config as Record<string, unknown>)[factor] as number;
    else return null;
  }
  return product;
}

describe('configuration catalogue', () => {
  it('declares each variable once, in a known group, with a default and a meaning', () => {
    const names = CONFIG_VARIABLES.map((v) => v.name);
    expect(new Set(names).size).to.equal(names.length);
    for (const variable of CONFIG_VARIABLES) {
      expect(CONFIG_GROUPS as readonly string[]).to.include(variable.group);
      expect(variable.default, variable.name).to.not.equal('');
      expect(variable.meaning, variable.name).to.not.equal('');
    }
  });

  it('declares only variables config.ts reads', () => {
    const unread = CONFIG_VARIABLES.map((v) => v.name).filter((name) => !source.includes(`'${name}'`) && !source.includes(`env.${name}`));
    expect(unread).to.deep.equal([]);
  });

  it('shows as default the very number config.ts falls back to', () => {
    const fallbacks = numericFallbacks();
    const computed: string[] = [];
    // Listeners that are off unless their port is set: the fallback is never used.
    const offUnlessSet = ['METRICS_PORT', 'MLLP_PORT'];
    for (const variable of CONFIG_VARIABLES) {
      const expression = fallbacks.get(variable.name);
      if (expression === undefined) continue;
      if (offUnlessSet.includes(variable.name)) {
        expect(variable.default, variable.name).to.match(/off/);
        continue;
      }
      const value = evaluate(expression);
      if (value === null) {
        computed.push(variable.name);
        continue;
      }
      const shown = /^`([0-9]+)`/.exec(variable.default);
      expect(shown, `${variable.name}: default "${variable.default}" should start with \`${value}\``).to.not.equal(null);
      expect(Number(shown![1]), variable.name).to.equal(value);
    }
    // Fallbacks computed from other settings are shown in words; a new one is named here on purpose.
    expect(computed.sort()).to.deep.equal(['ELIGIBILITY_LEASE_MS', 'MLLP_RESERVED_CONNECTIONS', 'WEBHOOK_LEASE_MS']);
  });

  it('shows the same defaults loadConfig gives an empty environment for the string settings', () => {
    const loaded = config.loadConfig({});
    expect(CONFIG_VARIABLES.find((v) => v.name === 'DATABASE_URL')!.default).to.equal(`\`${config.DEFAULT_DATABASE_URL}\``);
    expect(CONFIG_VARIABLES.find((v) => v.name === 'HOST')!.default).to.equal(`\`${loaded.host}\``);
    expect(CONFIG_VARIABLES.find((v) => v.name === 'LOG_LEVEL')!.default).to.equal(`\`${loaded.logLevel}\``);
    expect(CONFIG_VARIABLES.find((v) => v.name === 'WEBHOOK_RETRY_SCHEDULE')!.default).to.equal(`\`${config.DEFAULT_RETRY_SCHEDULE.join(',')}\``);
  });
});
