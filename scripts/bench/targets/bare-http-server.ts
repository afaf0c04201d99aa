// The physical limit: a bare node:http server, in its own process, answering every request
// with the same bytes (status, headers, body) the service answered, read once into memory.
// No routing, no validation, no database: what remains is Node's HTTP stack and the loopback.
//   node bare-http-server.ts RESPONSE_FILE PORT
// RESPONSE_FILE is JSON: { status, headers, body }.
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';

const [file, port] = process.argv.slice(2);
const recorded = JSON.parse(readFileSync(file!, 'utf8')) as { status: number; headers: Record<string, string>; body: string };
const body = Buffer.from(recorded.body, 'utf8');
const headers = { ...recorded.headers, 'content-length': String(body.length) };

const server = createServer((req, res) => {
  // Drain the (empty) request body, as any server must, then answer from memory.
  req.resume();
  res.writeHead(recorded.status, headers);
  res.end(body);
});
server.keepAliveTimeout = 65_000;
server.listen(Number(port), '127.0.0.1', () => process.stdout.write('ready\n'));
process.once('SIGTERM', () => server.close(() => process.exit(0)));
