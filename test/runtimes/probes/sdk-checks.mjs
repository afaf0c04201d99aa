// The SDK against the running service, in whatever runtime imports this: a token, a page, the
// auto-paginating iterator, one read, and the typed errors a partner branches on.
export async function sdkChecks(sdk, target) {
  const failures = [];
  let checks = 0;
  const attempt = async (name, run) => {
    checks++;
    try {
      if ((await run()) !== true) failures.push(name);
    } catch (error) {
      failures.push(`${name}: ${error && error.name}: ${error && error.message}`);
    }
  };
  const client = sdk.createClient({ baseUrl: target.baseUrl, clientId: target.clientId, clientSecret: target.clientSecret });
  const facility = client.facility(target.orgId, target.facilityId);
  let first;
  await attempt('a page of residents (token obtained on the way)', async () => {
    const page = await facility.residents.list({ pageSize: 2 });
    first = page.data[0];
    return page.page.total === target.residents && page.data.length === Math.min(2, target.residents) && first.resourceType === 'Patient';
  });
  await attempt('every resident through the auto-paginating iterator', async () => {
    const ids = new Set();
    for await (const resident of facility.residents.all({ pageSize: 2 })) ids.add(resident.id);
    return ids.size === target.residents;
  });
  await attempt('one resident by id', async () => (await facility.residents.get(first.id)).id === first.id);
  await attempt('an unknown resident is a NotFoundError with the request id', async () => {
    try {
      await facility.residents.get('00000000-0000-4000-8000-000000000000');
      return false;
    } catch (error) {
      return error instanceof sdk.NotFoundError && typeof error.requestId === 'string' && error.requestId.length > 0;
    }
  });
  await attempt('a wrong client secret is an authentication failure', async () => {
    const wrong = sdk.createClient({ baseUrl: target.baseUrl, clientId: target.clientId, clientSecret: 'wrong' });
    try {
      await wrong.facility(target.orgId, target.facilityId).residents.list();
      return false;
    } catch (error) {
      return error instanceof sdk.OfctxError && (error instanceof sdk.OAuthError || error instanceof sdk.AuthenticationError);
    }
  });
  return { checks, failures, version: sdk.SDK_VERSION };
}
