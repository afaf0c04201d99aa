// The realm of every RFC 6750 challenge (WWW-Authenticate: Bearer realm=...), whichever layer
// refuses the token: authentication (auth/) or a missing scope (tenancy/).
export const REALM = 'ofctx';
