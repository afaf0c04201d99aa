// The docs check's reading of Markdown (scripts/docs/markdown-links.ts): anchors as GitHub
// makes them, links outside code only, and the runnable shell blocks in page order.
import { expect } from 'chai';
import { anchors, githubSlug, headingText, isExternal, links, runnableBlocks } from '../../scripts/docs/markdown-links.js';

describe('docs check: Markdown links and anchors', () => {
  it('makes heading anchors as GitHub does: lower case, punctuation dropped, spaces to hyphens, underscores kept', () => {
    expect(githubSlug("SQLite's write-ahead log")).to.equal('sqlites-write-ahead-log');
    expect(githubSlug('FHIR Subscriptions (R5 Backport IG on R4)')).to.equal('fhir-subscriptions-r5-backport-ig-on-r4');
    expect(githubSlug('Benefits: CoverageEligibilityResponse')).to.equal('benefits-coverageeligibilityresponse');
    expect(githubSlug('MLLP_PORT and TLS')).to.equal('mllp_port-and-tls');
    expect(githubSlug('Núñez — résumé')).to.equal('núñez--résumé');
    expect(headingText('The `/ofctx/` lists and [SMART](smart.md) **scopes**')).to.equal('The /ofctx/ lists and SMART scopes');
  });

  it('numbers repeated headings and takes HTML ids, but not headings inside code fences', () => {
    const page = ['# Keys', '## Settings', '```sh', '# not a heading', '```', '## Settings', '<a id="custom"></a>', '### `WEBHOOK_LEASE_MS`'].join('\n');
    expect([...anchors(page)]).to.have.members(['keys', 'settings', 'settings-1', 'custom', 'webhook_lease_ms']);
  });

  it('reads inline links and reference definitions, not those in code spans or fences', () => {
    const page = [
      'See [tokens](partners/tokens.md#how-credentials-are-kept) and [the site](https://hl7.org/fhir/).',
      'Not `[a](in-code.md)`; but [b](<with space.md> "title").',
      '```md',
      '[c](in-fence.md)',
      '```',
      '[ref]: ../verifier/README.md',
    ].join('\n');
    expect(links(page)).to.deep.equal([
      { target: 'partners/tokens.md#how-credentials-are-kept', line: 1 },
      { target: 'https://hl7.org/fhir/', line: 1 },
      { target: 'with space.md', line: 2 },
      { target: '../verifier/README.md', line: 6 },
    ]);
    expect(isExternal('https://hl7.org/fhir/')).to.equal(true);
    expect(isExternal('mailto:ops@example.com')).to.equal(true);
    expect(isExternal('../quotas.md#the-bound')).to.equal(false);
    expect(isExternal('#retention')).to.equal(false);
  });

  it('picks the shell blocks marked runnable, in page order, with the line of their fence', () => {
    const page = ['intro', '```sh runnable', 'echo one', '```', '```sh', 'echo never', '```', '````bash runnable', 'echo two', '```', 'still two', '````'].join('\n');
    expect(runnableBlocks(page)).to.deep.equal([
      { code: 'echo one', line: 2 },
      { code: 'echo two\n```\nstill two', line: 8 },
    ]);
  });
});
