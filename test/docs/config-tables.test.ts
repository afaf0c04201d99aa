// The configuration page's generated tables (scripts/docs/config-tables.ts): one table per
// group, rows in catalogue order, written only between the markers, and the same twice.
import { expect } from 'chai';
import { END_MARKER, START_MARKER, renderConfigTables, replaceBetweenMarkers } from '../../scripts/docs/config-tables.js';

describe('docs check: configuration tables', () => {
  it('renders a table per group holding variables, in catalogue order, escaping pipes', () => {
    const markdown = renderConfigTables([
      { name: 'PORT', group: 'Service', default: '`8080`', meaning: 'the port' },
      { name: 'MLLP_PORT', group: 'HL7 v2 over MLLP', default: 'off', meaning: 'a | b' },
      { name: 'HOST', group: 'Service', default: '`0.0.0.0`', meaning: 'the address' },
    ]);
    expect(markdown).to.equal(
      [
        '### Service', '', '| variable | default | meaning |', '|---|---|---|', '| `PORT` | `8080` | the port |', '| `HOST` | `0.0.0.0` | the address |',
        '', '### HL7 v2 over MLLP', '', '| variable | default | meaning |', '|---|---|---|', '| `MLLP_PORT` | off | a \\| b |',
      ].join('\n'),
    );
  });

  it('replaces only what lies between the markers, the same way every time', () => {
    const page = `# Configuration\n\nintro\n\n${START_MARKER}\nstale\n${END_MARKER}\n\nafter\n`;
    const once = replaceBetweenMarkers(page, 'TABLES');
    expect(once).to.equal(`# Configuration\n\nintro\n\n${START_MARKER}\n\nTABLES\n\n${END_MARKER}\n\nafter\n`);
    expect(replaceBetweenMarkers(once, 'TABLES')).to.equal(once);
  });

  it('refuses a page without both markers in order', () => {
    expect(() => replaceBetweenMarkers('# Configuration\n', 'TABLES')).to.throw(/markers/);
    expect(() => replaceBetweenMarkers(`${END_MARKER}\n${START_MARKER}\n`, 'TABLES')).to.throw(/markers/);
  });
});
