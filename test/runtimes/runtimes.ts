// The runtimes the matrix (run.ts) runs the packages on, and how the READMEs name them: the
// READMEs may claim these and only these (test/packaging/readme-runtime-claims.test.ts).
export const RUNTIMES = ['node18', 'node20', 'node22', 'node24', 'bun', 'deno', 'workerd', 'chromium'] as const;
export type RuntimeName = (typeof RUNTIMES)[number];

/** What each package is run on, as its README's opening lines say it. */
export const TESTED_CLAIMS = {
  sdk: 'Node 18, 20, 22 and 24, Bun\n  and Deno',
  verifier: 'Node 18, 20, 22 and 24, Bun, Deno, workerd (the\nCloudflare Workers runtime) and Chromium (in a page and in a Web Worker)',
} as const;
