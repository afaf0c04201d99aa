// The Markdown of the configuration page's variable tables, one per group, from the catalogue.
import { CONFIG_GROUPS, CONFIG_VARIABLES, type ConfigVariable } from '../../server/src/config/variables.js';

export const START_MARKER = '<!-- config-variables:start (generated from server/src/config/variables.ts by npm run generate:config-docs; do not edit) -->';
export const END_MARKER = '<!-- config-variables:end -->';

const cell = (text: string) => text.replace(/\|/g, '\\|');

export function renderConfigTables(variables: readonly ConfigVariable[] = CONFIG_VARIABLES): string {
  const sections: string[] = [];
  for (const group of CONFIG_GROUPS) {
    const rows = variables.filter((v) => v.group === group);
    if (rows.length === 0) continue;
    sections.push(
      [`### ${group}`, '', '| variable | default | meaning |', '|---|---|---|', ...rows.map((v) => `| \`${v.name}\` | ${cell(v.default)} | ${cell(v.meaning)} |`)].join('\n'),
    );
  }
  return sections.join('\n\n');
}

/** The page with everything between the markers replaced by `body`; the markers must be there once. */
export function replaceBetweenMarkers(page: string, body: string): string {
  const start = page.indexOf(START_MARKER);
  const end = page.indexOf(END_MARKER);
  if (start < 0 || end < start || page.indexOf(START_MARKER, start + 1) >= 0) {
    throw new Error(`the page must hold the markers once, in order:\n${START_MARKER}\n${END_MARKER}`);
  }
  return `${page.slice(0, start + START_MARKER.length)}\n\n${body}\n\n${page.slice(end)}`;
}
