// Loaded into an example's process with `--import` (after tsx): replaces globalThis.fetch,
// which the SDK uses by default, with one that checks every answer from the service against
// openapi/openapi.yaml. A violation ends the process at once with exit code 70 and the
// violation on stderr: thrown inside fetch, the SDK would take it for a network error and
// retry, and the example would report something else. The contract is loaded at the first
// request, so a run that never calls the service (a usage error) does not pay for it.

export const CONTRACT_VIOLATION_EXIT_CODE = 70;

const serviceOrigin = process.env.OFCTX_BASE_URL ? new URL(process.env.OFCTX_BASE_URL).origin : undefined;
const networkFetch = globalThis.fetch;

globalThis.fetch = async (input, init) => {
  const request = new Request(input, init);
  const response = await networkFetch(request);
  // Only the service's answers are the contract's business.
  if (new URL(request.url).origin !== serviceOrigin) return response;
  const text = await response.clone().text();
  let body: unknown = text;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    // not JSON: the contract check reports it
  }
  try {
    const { assertMatchesContract } = await import('../../support/contract.js');
    await assertMatchesContract(request.method, request.url, response.status, response.headers, body);
  } catch (error) {
    process.stderr.write(`CONTRACT VIOLATION: ${(error as Error).message}\n`);
    process.exit(CONTRACT_VIOLATION_EXIT_CODE);
  }
  return response;
};
