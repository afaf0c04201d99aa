// The flooding partner of the fairness benchmark: autocannon in a process of its own (so its
// work does not delay the quiet partner's timer), sending one URL with one bearer token from
// CONNECTIONS connections as fast as it is answered, until SIGTERM; then one JSON line with
// its counts. Usage: flood.ts URL TOKEN CONNECTIONS
import autocannon from 'autocannon';

const [url, token, connections] = process.argv.slice(2) as [string, string, string];
const instance = autocannon({ url, headers: { authorization: `Bearer ${token}` }, connections: Number(connections), duration: 3600 }, (error, result) => {
  if (error) {
    console.error(error);
    process.exit(1);
  }
  console.log(JSON.stringify({ seconds: result.duration, total: result.requests.total, ok: result['2xx'], non2xx: result.non2xx, refused: result.statusCodeStats?.['429']?.count ?? 0, errors: result.errors + result.timeouts }));
  process.exit(0);
});
process.on('SIGTERM', () => instance.stop());
console.log('ready');
