// What the test runners (run-tests.mjs, test-node-lines.mjs) share to repeat what failed after
// their totals: a CI log kept only by its tail still names the failing test and its error.
import { spawn } from 'node:child_process';

/** The heading run-tests.mjs prints above a run's repeated report, which test-node-lines.mjs finds. */
export const FAILURE_REPORT_HEADING = '=== what failed on';

/** Runs a command with its output shown as it comes and kept, for what failed to be read from it. */
export function runShowingOutput(command, args, options) {
  return new Promise((resolveRun) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      process.stdout.write(chunk);
    });
    child.on('close', (code) => resolveRun({ code: code ?? 1, out }));
  });
}
