// Who is calling: the credential behind a bearer token, with what the token may touch now.
export interface Principal {
  clientPk: string;
  clientId: string;
  orgId: string;
  scopes: ReadonlySet<string>;
  /** The token's facilities that the credential is still granted. */
  facilityIds: ReadonlySet<string>;
  expiresAt: number;
}
