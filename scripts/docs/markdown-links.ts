// What the docs check reads in a Markdown page: its headings' anchors as GitHub makes them,
// its links (outside code), and its runnable shell blocks. Pure functions, tested in
// test/docs/markdown-links.test.ts.

/** GitHub's heading id (github-slugger): lower case, punctuation dropped, spaces to hyphens. */
export function githubSlug(headingText: string): string {
  return headingText
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

/** The text GitHub renders for a heading's Markdown: code spans, links and emphasis unwrapped. */
export function headingText(markdown: string): string {
  return markdown
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/(\*\*|__|\*)/g, '')
    .trim();
}

interface Line {
  text: string;
  /** 1-based line number in the page. */
  number: number;
}

/** The page's lines outside fenced code blocks. */
function proseLines(markdown: string): Line[] {
  const lines: Line[] = [];
  let fence: string | null = null;
  markdown.split('\n').forEach((text, index) => {
    const opening = /^ {0,3}(`{3,}|~{3,})/.exec(text);
    if (fence === null && opening) fence = opening[1]!;
    else if (fence !== null && new RegExp(`^ {0,3}${fence[0]}{${fence.length},}\\s*$`).test(text)) fence = null;
    else if (fence === null) lines.push({ text, number: index + 1 });
  });
  return lines;
}

/** Every anchor a link may name in the page: headings (duplicates numbered -1, -2...) and HTML ids. */
export function anchors(markdown: string): Set<string> {
  const found = new Set<string>();
  const seen = new Map<string, number>();
  for (const { text } of proseLines(markdown)) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(text);
    if (heading) {
      const slug = githubSlug(headingText(heading[1]!));
      const count = seen.get(slug) ?? 0;
      seen.set(slug, count + 1);
      found.add(count === 0 ? slug : `${slug}-${count}`);
    }
    for (const html of text.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) found.add(html[1]!);
  }
  return found;
}

export interface Link {
  target: string;
  line: number;
}

/** Inline links and reference definitions outside code (fences and code spans). */
export function links(markdown: string): Link[] {
  const found: Link[] = [];
  for (const { text, number } of proseLines(markdown)) {
    const prose = text.replace(/(`+)[\s\S]*?\1/g, '');
    for (const match of prose.matchAll(/\]\(\s*(?:<([^>]+)>|([^)\s]+))(?:\s+"[^"]*")?\s*\)/g)) found.push({ target: (match[1] ?? match[2])!, line: number });
    const definition = /^ {0,3}\[[^\]]+\]:\s+<?(\S+?)>?(\s|$)/.exec(prose);
    if (definition) found.push({ target: definition[1]!, line: number });
  }
  return found;
}

/** Links to other sites or protocols, which the check leaves alone. */
export function isExternal(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');
}

export interface RunnableBlock {
  code: string;
  /** The line of the opening fence. */
  line: number;
}

/** Shell blocks whose fence says `runnable` (```sh runnable), in page order. */
export function runnableBlocks(markdown: string): RunnableBlock[] {
  const blocks: RunnableBlock[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const opening = /^ {0,3}(`{3,})\s*(?:sh|bash|shell)\b(.*)$/.exec(lines[i]!);
    if (!opening || !/\brunnable\b/.test(opening[2]!)) continue;
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !new RegExp(`^ {0,3}\`{${opening[1]!.length},}\\s*$`).test(lines[j]!)) body.push(lines[j++]!);
    blocks.push({ code: body.join('\n'), line: i + 1 });
    i = j;
  }
  return blocks;
}
