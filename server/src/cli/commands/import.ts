// `import --org ORG --facility FAC FILE|-`: what a system of record exported (a FHIR Bundle,
// NDJSON...), written through the same ingestion code as the HTTP endpoint. The format is
// detected from the content (cli/import/formats.ts). A progress bar on a terminal; with
// --json one summary object.
import { createReadStream, statSync } from 'node:fs';
import { randomBytes, randomUUID } from 'node:crypto';
import { findOrganization } from '../../organizations/organizations.js';
import { warmFhirValidator } from '../../ingest/fhir-validator.js';
import { uuidOption, UsageError, type Command } from '../command.js';
import { detectFormat, IMPORTERS } from '../import/formats.js';
import { ImportRefused, type ImportSummary } from '../import/importer.js';
import { analyzeAfterBulkLoad } from '../../ingest/statistics-after-bulk-load.js';
import { ContentCapture } from '../../messages/content-capture.js';
import { MessageStore } from '../../messages/message-store.js';
import type { MessageFormat, ReceivedMessage } from '../../messages/message-types.js';
import { ingestWritesMark, writtenRecords } from '../../messages/written-records.js';
import { loadSigningSecretCipher, SigningSecretCipher } from '../../db/signing-secret-crypto.js';
import { x12Envelope } from '../../x12/x12-message.js';
import { X12Error } from '../../x12/x12-error.js';
import { bundleControlId } from '../../ingest/fhir-bundle-message.js';

const HEAD_BYTES = 64 * 1024;

/** Reads the first bytes for detection, then hands back a stream that still starts with them. */
async function withHead(source: AsyncIterable<Buffer>): Promise<{ head: string; stream: AsyncIterable<Buffer> }> {
  const iterator = source[Symbol.asyncIterator]();
  const taken: Buffer[] = [];
  let size = 0;
  let done = false;
  while (size < HEAD_BYTES) {
    const next = await iterator.next();
    if (next.done) {
      done = true;
      break;
    }
    const chunk = Buffer.isBuffer(next.value) ? next.value : Buffer.from(next.value);
    taken.push(chunk);
    size += chunk.length;
  }
  const stream = (async function* () {
    yield* taken;
    if (!done) for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value as Buffer;
  })();
  return { head: Buffer.concat(taken).subarray(0, HEAD_BYTES).toString('utf8'), stream };
}

async function progressBar(interactive: boolean, total: number | undefined) {
  if (!interactive) return { update: (_n: number) => {}, stop: () => {} };
  const { default: cliProgress } = await import('cli-progress');
  const bar = new cliProgress.SingleBar(
    { format: total ? 'importing [{bar}] {percentage}% | {resources} resources' : 'importing {resources} resources', stream: process.stderr, hideCursor: true },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total ?? 1, 0, { resources: 0 });
  return { update: (bytes: number, resources = 0) => bar.update(Math.min(bytes, total ?? bytes), { resources }), stop: () => bar.stop() };
}

export const importCommand: Command = {
  name: 'import',
  summary: `Write a system of record's export (${IMPORTERS.map((i) => i.format).join(', ')}, detected from the content) through ingestion; - reads stdin.`,
  usage: 'import --org ORG --facility FAC FILE|- [--json]',
  options: { org: { type: 'string' }, facility: { type: 'string' } },
  positionals: 1,
  async run(args, cli) {
    const orgId = uuidOption(args, 'org');
    const facilityId = uuidOption(args, 'facility');
    const file = args.positionals[0]!;
    let total: number | undefined;
    if (file !== '-') {
      try {
        total = statSync(file).size;
      } catch {
        throw new UsageError(`cannot read ${file}`);
      }
    }
    const db = await cli.db();
    if (!(await findOrganization(db, orgId))) throw new UsageError(`no organization ${orgId}`);
    if (!(await db('facilities').where({ id: facilityId, org_id: orgId }).first())) throw new UsageError(`no facility ${facilityId} in organization ${orgId}`);
    const capture = new ContentCapture(cli.config.ingestMaxBundleBytes);
    const input = capture.through((file === '-' ? process.stdin : createReadStream(file)) as AsyncIterable<Buffer>);
    let bytes = 0;
    const counted = (async function* () {
      for await (const chunk of input) {
        bytes += chunk.length;
        yield chunk;
      }
    })();
    const { head, stream } = await withHead(counted);
    const importer = detectFormat(head);
    if (!importer) throw new UsageError(`cannot tell the format of ${file === '-' ? 'stdin' : file}; expected one of ${IMPORTERS.map((i) => i.format).join(', ')}`);
    await warmFhirValidator();
    const bar = await progressBar(cli.interactive, total);
    const runId = `ops-import-${randomUUID()}`;
    // The import is an inbound message like any other (road import): stored with its outcome.
    // Without the data key (PostgreSQL without WEBHOOK_ENCRYPTION_KEY) the import still runs, and
    // is stored with its outcome but not its content (which cannot be encrypted).
    let keyed = true;
    let cipher: SigningSecretCipher;
    try {
      cipher = loadSigningSecretCipher(cli.config.databaseUrl, cli.config.webhooks.encryptionKey, cli.config.webhooks.previousEncryptionKey).cipher;
    } catch {
      keyed = false;
      cipher = new SigningSecretCipher(randomBytes(32));
      cli.progress('note: no WEBHOOK_ENCRYPTION_KEY: the message store keeps this import without its content\n');
    }
    const store = new MessageStore(db, cipher);
    const received = (): ReceivedMessage => {
      const content = keyed ? capture.content() : null;
      const envelope = importer.format === 'x12-271' && content !== null ? x12Envelope(content) : { sender: null, controlNumber: null };
      let controlId = envelope.controlNumber;
      if (importer.format === 'fhir-bundle' && content !== null) {
        try {
          controlId = bundleControlId(JSON.parse(content));
        } catch {
          // not JSON: refused by the importer
        }
      }
      return { road: 'import', format: importer.format as MessageFormat, orgId, facilityId, source: { client_id: 'ops-cli', peer: null, sending_application: envelope.sender, sending_facility: null }, messageType: { 'fhir-bundle': 'Bundle', 'fhir-ndjson': 'NDJSON', 'x12-271': '271' }[importer.format] ?? importer.format, controlId, content, sizeBytes: capture.bytes };
    };
    try {
      const mark = await ingestWritesMark(db);
      const summary = await importer.run(stream, { db, orgId, facilityId, actor: 'ops-cli', runId }, (resources) => bar.update(bytes, resources));
      await analyzeAfterBulkLoad(db);
      await store.store(received(), {
        status: summary.rejected_count > 0 ? 'applied_with_warnings' : 'applied',
        answer: { code: 'imported', errors: summary.rejected.map((r) => ({ severity: 'error' as const, code: 'rejected', where: r.at, text: r.issue })) },
        records: await writtenRecords(db, orgId, runId, mark),
      });
      return summary;
    } catch (error) {
      if (error instanceof ImportRefused || error instanceof X12Error) {
        // Drain what is left, so the stored content is the whole file.
        for await (const _chunk of stream) void _chunk;
        await store.store(received(), { status: 'refused', answer: { code: 'refused', errors: [{ severity: 'error', code: 'refused', text: error.message }] }, records: [] });
      }
      if (error instanceof ImportRefused) throw new Error(error.message);
      throw error;
    } finally {
      bar.stop();
    }
  },
  format: (r: ImportSummary & { matched?: number; unmatched?: Array<{ at: string; issue: string }>; conflicts?: Array<{ at: string; issue: string }> }) =>
    [
      r.unmatched
        ? `${r.format}: ${r.matched} matched, ${r.updated} updated, ${r.unchanged} unchanged, ${r.unmatched.length} unmatched, ${r.rejected_count} rejected, ${r.conflicts?.length ?? 0} conflicts, ${r.events} events`
        : `${r.format}: ${r.created} created, ${r.updated} updated, ${r.unchanged} unchanged, ${r.rejected_count} rejected, ${r.events} events`,
      ...(r.unmatched ?? []).map((x) => `  unmatched ${x.at}: ${x.issue}`),
      ...r.rejected.map((x) => `  rejected ${x.at}: ${x.issue}`),
      ...(r.conflicts ?? []).map((x) => `  conflict ${x.at}: ${x.issue}`),
    ].join('\n'),
};
