// The token endpoint answers in RFC 6749's form, not the envelope (oauth-error.ts), and is
// counted and rate-limited apart: its path and operationId, for every layer that must know it.
export const TOKEN_PATH = '/api/v1/oauth/token';
export const TOKEN_OPERATION = 'createToken';
