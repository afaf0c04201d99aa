/**
 * The SDK's version, sent in the User-Agent header. Kept equal to `version` in
 * sdk/package.json by sdk/test/version.test.ts (reading package.json at run time would
 * need a JSON import or file access that not every runtime with `fetch` has).
 */
export const SDK_VERSION = '0.1.0';
