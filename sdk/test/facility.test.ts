import { expect } from 'chai';
import nock from 'nock';
import { createClientWithRuntime } from '../src/client.js';
import { NotFoundError, PermissionError, ValidationError } from '../src/errors.js';
import {
  allergy,
  API_HEADERS,
  BASE_URL,
  CLIENT_ID,
  CLIENT_SECRET,
  coverage,
  errorEnvelope,
  FACILITY_ID,
  FACILITY_PATH,
  listBody,
  ManualRuntime,
  mockToken,
  observation,
  ORG_ID,
  patient,
  readBody,
  rejectionOf,
  uuid,
  useNock,
} from './fixtures/api.js';

describe('facility resources', () => {
  useNock();
  beforeEach(() => mockToken());
  const facility = (facilityId = FACILITY_ID) =>
    createClientWithRuntime({ baseUrl: BASE_URL, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET }, new ManualRuntime()).facility(ORG_ID, facilityId);

  it('residents.list() and residents.get() read Patient resources', async () => {
    nock(BASE_URL).get(`${FACILITY_PATH}/residents`).query({ page: '1', page_size: '10' }).reply(200, listBody([patient(1)], 1, 10, 1), API_HEADERS);
    nock(BASE_URL).get(`${FACILITY_PATH}/residents/${uuid(1)}`).reply(200, readBody(patient(1)), API_HEADERS);
    const { residents } = facility();
    const page = await residents.list({ page: 1, pageSize: 10 });
    expect(page.data[0]!.resourceType).to.equal('Patient');
    expect(await residents.get(uuid(1))).to.deep.equal(patient(1));
  });

  it('coverage reads Coverage, filtered by resident', async () => {
    nock(BASE_URL).get(`${FACILITY_PATH}/coverage`).query({ resident_id: uuid(1) }).reply(200, listBody([coverage(2)], 1, 50, 1), API_HEADERS);
    nock(BASE_URL).get(`${FACILITY_PATH}/coverage/${uuid(2)}`).reply(200, readBody(coverage(2)), API_HEADERS);
    const { coverage: collection } = facility();
    expect((await collection.list({ residentId: uuid(1) })).data).to.deep.equal([coverage(2)]);
    expect((await collection.get(uuid(2))).status).to.equal('active');
  });

  it('observations read clinical/Observation, filtered by resident', async () => {
    nock(BASE_URL).get(`${FACILITY_PATH}/clinical/Observation`).query({ resident_id: uuid(1) }).reply(200, listBody([observation(3)], 1, 50, 1), API_HEADERS);
    nock(BASE_URL).get(`${FACILITY_PATH}/clinical/Observation/${uuid(3)}`).reply(200, readBody(observation(3)), API_HEADERS);
    const { observations } = facility();
    expect((await observations.list({ residentId: uuid(1) })).data).to.deep.equal([observation(3)]);
    expect((await observations.get(uuid(3))).valueString).to.equal('71.4 kg');
  });

  it('allergies read clinical/AllergyIntolerance, filtered by resident', async () => {
    nock(BASE_URL)
      .get(`${FACILITY_PATH}/clinical/AllergyIntolerance`)
      .query({ resident_id: uuid(1) })
      .reply(200, listBody([allergy(4)], 1, 50, 1), API_HEADERS);
    nock(BASE_URL).get(`${FACILITY_PATH}/clinical/AllergyIntolerance/${uuid(4)}`).reply(200, readBody(allergy(4)), API_HEADERS);
    const { allergies } = facility();
    expect((await allergies.list({ residentId: uuid(1) })).data).to.deep.equal([allergy(4)]);
    expect((await allergies.get(uuid(4))).clinicalStatus).to.equal('active');
  });

  it('get() of an unknown id is a NotFoundError', async () => {
    nock(BASE_URL).get(`${FACILITY_PATH}/residents/${uuid(99)}`).reply(404, errorEnvelope('not_found', 'No such resource.'), API_HEADERS);
    const error = await rejectionOf(facility().residents.get(uuid(99)));
    expect(error).to.be.instanceOf(NotFoundError);
    expect(error).to.include({ status: 404, code: 'not_found' });
  });

  it('a facility outside the grant is a PermissionError', async () => {
    const other = uuid(77);
    nock(BASE_URL)
      .get(`/api/v1/ofctx/${ORG_ID}/${other}/residents`)
      .reply(403, errorEnvelope('facility_forbidden', 'The facility is not granted to this credential.'), API_HEADERS);
    const error = await rejectionOf(facility(other).residents.list());
    expect(error).to.be.instanceOf(PermissionError);
    expect(error).to.include({ code: 'facility_forbidden' });
  });

  it('a missing scope is a PermissionError naming the scope', async () => {
    nock(BASE_URL)
      .get(`${FACILITY_PATH}/coverage`)
      .reply(403, errorEnvelope('insufficient_scope', 'This operation needs the scope coverage.read, which the access token does not carry.', [{ field: 'scope', issue: 'requires coverage.read' }]), {
        ...API_HEADERS,
        'WWW-Authenticate': 'Bearer realm="ofctx", error="insufficient_scope", scope="coverage.read"',
      });
    const error = await rejectionOf(facility().coverage.list());
    expect(error).to.be.instanceOf(PermissionError);
    expect(error).to.include({ requiredScope: 'coverage.read' });
  });

  it('a malformed parameter is a ValidationError with the field list', async () => {
    nock(BASE_URL)
      .get(`${FACILITY_PATH}/residents`)
      .query({ page_size: '500' })
      .reply(400, errorEnvelope('invalid_parameter', 'The request has invalid parameters.', [{ field: 'query.page_size', issue: 'must be <= 200' }]), API_HEADERS);
    const error = await rejectionOf(facility().residents.list({ pageSize: 500 }));
    expect(error).to.be.instanceOf(ValidationError);
    expect((error as ValidationError).details).to.deep.equal([{ field: 'query.page_size', issue: 'must be <= 200' }]);
  });

  it('refuses an empty facility or id before sending anything', async () => {
    nock.cleanAll();
    expect(() => facility('')).to.throw(TypeError, 'facilityId');
    const error = await rejectionOf(facility().residents.get(undefined as unknown as string));
    expect(error).to.be.instanceOf(TypeError);
    expect((error as Error).message).to.contain('id must be a non-empty string');
  });

  it('encodes ids into the path (no path traversal)', async () => {
    nock(BASE_URL).get(`${FACILITY_PATH}/residents/..%2Fcoverage`).reply(400, errorEnvelope('invalid_parameter', 'The request has invalid parameters.', [{ field: 'path.resident_id', issue: 'must be a uuid' }]), API_HEADERS);
    expect(await rejectionOf(facility().residents.get('../coverage'))).to.be.instanceOf(ValidationError);
  });
});
