// The CAQH CORE Connectivity Rule vC2.2.0 real-time envelopes that carry a 270 to a
// clearinghouse and its 271 (or 999) back: SOAP 1.2 with a WS-Security UsernameToken, or
// HTTP MIME multipart/form-data. Both directions live here, requests and responses, so ofctx
// and the test double of a clearinghouse share one definition of the fields. XML is read
// with fast-xml-parser (namespaces resolved here: its children are matched by local name,
// prefixed or not, as clearinghouses send them both ways); multipart with undici's
// Request/Response. Nothing here logs or repeats a password or a payload in an error.
import { XMLParser, XMLValidator } from 'fast-xml-parser';

export type CoreProtocol = 'soap' | 'mime';

export const PAYLOAD_270 = 'X12_270_Request_005010X279A1';
export const PAYLOAD_271 = 'X12_271_Response_005010X279A1';
export const PAYLOAD_999 = 'X12_999_Response_005010X231A1';
/** The PayloadType of an answer refusing the envelope itself (with its ErrorCode, no payload). */
export const PAYLOAD_ENVELOPE_ERROR = 'CoreEnvelopeError';
export const CORE_RULE_VERSION = '2.2.0';
export const PROCESSING_MODE_REAL_TIME = 'RealTime';
export const SUCCESS = 'Success';

export interface CoreEnvelope {
  payloadType: string;
  processingMode: string;
  /** A UUID, echoed by the answer. */
  payloadId: string;
  /** xs:dateTime, UTC. */
  timeStamp: string;
  senderId: string;
  receiverId: string;
  coreRuleVersion: string;
  /** The X12 interchange. */
  payload?: string;
  /** Responses: `Success`, or the CORE error code. */
  errorCode?: string;
  errorMessage?: string;
}

export interface CoreCredentials {
  username: string;
  password: string;
}

export interface CoreMessage {
  body: Buffer;
  contentType: string;
  headers: Record<string, string>;
}

/** The answer (or request) is not a readable CORE envelope. Never quotes the body. */
export class CoreEnvelopeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CoreEnvelopeError';
  }
}

export const SOAP_12_NS = 'http://www.w3.org/2003/05/soap-envelope';
export const CORE_NS = 'http://www.caqh.org/SOAP/WSDL/CORERule2.2.0.xsd';
const WSSE_NS = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd';
const WSU_NS = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd';
const PASSWORD_TEXT = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0#PasswordText';
/** SOAP 1.2 carries the action in the media type (there is no SOAPAction header). */
export const SOAP_CONTENT_TYPE = 'application/soap+xml; charset=utf-8; action="RealTimeTransaction"';

/** The envelope fields in the order of the CORE schema, with their element (and MIME part) names. */
const REQUEST_FIELDS = [
  ['payloadType', 'PayloadType'],
  ['processingMode', 'ProcessingMode'],
  ['payloadId', 'PayloadID'],
  ['timeStamp', 'TimeStamp'],
  ['senderId', 'SenderID'],
  ['receiverId', 'ReceiverID'],
  ['coreRuleVersion', 'CORERuleVersion'],
  ['payload', 'Payload'],
] as const satisfies ReadonlyArray<readonly [keyof CoreEnvelope, string]>;
const RESPONSE_FIELDS = [...REQUEST_FIELDS, ['errorCode', 'ErrorCode'], ['errorMessage', 'ErrorMessage']] as const;

function escapeXml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}

/** A CDATA section; a `]]>` inside is split across two sections so it cannot end the first early. */
function cdata(value: string): string {
  return `<![CDATA[${value.replaceAll(']]>', ']]]]><![CDATA[>')}]]>`;
}

function soapBody(element: 'COREEnvelopeRealTimeRequest' | 'COREEnvelopeRealTimeResponse', envelope: CoreEnvelope, fields: typeof RESPONSE_FIELDS | typeof REQUEST_FIELDS): string {
  const children = fields
    .filter(([key, name]) => envelope[key] !== undefined || (name !== 'Payload' && name !== 'ErrorMessage'))
    .map(([key, name]) => `<cor:${name}>${name === 'Payload' ? cdata(envelope[key] ?? '') : escapeXml(envelope[key] ?? '')}</cor:${name}>`)
    .join('');
  return `<soapenv:Body><cor:${element}>${children}</cor:${element}></soapenv:Body>`;
}

function soapDocument(header: string, body: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope xmlns:soapenv="${SOAP_12_NS}" xmlns:cor="${CORE_NS}">${header}${body}</soapenv:Envelope>`;
}

function soapMessage(xml: string): CoreMessage {
  return { body: Buffer.from(xml, 'utf8'), contentType: SOAP_CONTENT_TYPE, headers: { 'Content-Type': SOAP_CONTENT_TYPE } };
}

/** A multipart/form-data body, built by undici (boundary and part headers as browsers write them). */
async function multipart(parts: Array<[string, string]>): Promise<CoreMessage> {
  const form = new FormData();
  for (const [name, value] of parts) form.append(name, value);
  const request = new Request('http://multipart.invalid/', { method: 'POST', body: form });
  const contentType = request.headers.get('content-type')!;
  return { body: Buffer.from(await request.arrayBuffer()), contentType, headers: { 'Content-Type': contentType } };
}

function mimeParts(envelope: CoreEnvelope, fields: typeof RESPONSE_FIELDS | typeof REQUEST_FIELDS): Array<[string, string]> {
  return fields.filter(([key]) => envelope[key] !== undefined).map(([key, name]) => [name, envelope[key]!]);
}

/** The request carrying a 270: SOAP 1.2 with a WS-Security UsernameToken, or MIME multipart. */
export async function coreRequest(protocol: CoreProtocol, envelope: CoreEnvelope, credentials: CoreCredentials): Promise<CoreMessage> {
  if (protocol === 'mime') {
    // The order of the rule's example; UserName and Password as parts.
    const byName = new Map(mimeParts(envelope, REQUEST_FIELDS));
    const order = ['ProcessingMode', 'TimeStamp', 'PayloadID', 'CORERuleVersion', 'ReceiverID', 'SenderID', 'PayloadType'];
    return multipart([
      ...order.filter((name) => byName.has(name)).map((name): [string, string] => [name, byName.get(name)!]),
      ['UserName', credentials.username],
      ['Password', credentials.password],
      ...(byName.has('Payload') ? [['Payload', byName.get('Payload')!] as [string, string]] : []),
    ]);
  }
  const security =
    `<soapenv:Header><wsse:Security xmlns:wsse="${WSSE_NS}" xmlns:wsu="${WSU_NS}" soapenv:mustUnderstand="true">` +
    `<wsse:UsernameToken><wsse:Username>${escapeXml(credentials.username)}</wsse:Username>` +
    `<wsse:Password Type="${PASSWORD_TEXT}">${escapeXml(credentials.password)}</wsse:Password></wsse:UsernameToken></wsse:Security></soapenv:Header>`;
  return soapMessage(soapDocument(security, soapBody('COREEnvelopeRealTimeRequest', envelope, REQUEST_FIELDS)));
}

/** The response carrying a 271 or 999 (or an ErrorCode): written by the test double, read by ofctx. */
export async function coreResponse(protocol: CoreProtocol, envelope: CoreEnvelope): Promise<CoreMessage> {
  if (protocol === 'mime') return multipart(mimeParts(envelope, RESPONSE_FIELDS));
  return soapMessage(soapDocument('', soapBody('COREEnvelopeRealTimeResponse', envelope, RESPONSE_FIELDS)));
}

/** A SOAP 1.2 Fault: `code` is Sender or Receiver, `subcode` a CORE error code such as UnAuthorized. */
export function coreSoapFault(code: 'Sender' | 'Receiver', reason: string, subcode?: string): CoreMessage {
  const sub = subcode ? `<soapenv:Subcode><soapenv:Value>cor:${escapeXml(subcode)}</soapenv:Value></soapenv:Subcode>` : '';
  return soapMessage(
    soapDocument('', `<soapenv:Body><soapenv:Fault><soapenv:Code><soapenv:Value>soapenv:${code}</soapenv:Value>${sub}</soapenv:Code><soapenv:Reason><soapenv:Text xml:lang="en">${escapeXml(reason)}</soapenv:Text></soapenv:Reason></soapenv:Fault></soapenv:Body>`),
  );
}

// ---- reading ----

/** An element as fast-xml-parser gives it (every child in an array, text under #text), with its namespace scope. */
interface XmlElement {
  local: string;
  ns: string | undefined;
  node: Record<string, unknown>;
  scope: Map<string, string>;
}

const xmlParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  alwaysCreateTextNode: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  isArray: (_name, _path, _leaf, isAttribute) => !isAttribute,
});

function localName(qname: string): { prefix: string; local: string } {
  const i = qname.indexOf(':');
  return i < 0 ? { prefix: '', local: qname } : { prefix: qname.slice(0, i), local: qname.slice(i + 1) };
}

/** The child elements of `parent` (or of the document), each with its resolved namespace. */
function childElements(node: Record<string, unknown>, parentScope: Map<string, string>): XmlElement[] {
  const elements: XmlElement[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key.startsWith('@_') || key === '#text' || !Array.isArray(value)) continue;
    for (const child of value as Array<Record<string, unknown>>) {
      const scope = new Map(parentScope);
      for (const [attr, uri] of Object.entries(child)) {
        if (attr === '@_xmlns') scope.set('', String(uri));
        else if (attr.startsWith('@_xmlns:')) scope.set(attr.slice(8), String(uri));
      }
      const { prefix, local } = localName(key);
      elements.push({ local, ns: scope.get(prefix), node: child, scope });
    }
  }
  return elements;
}

function child(parent: XmlElement, local: string, ns?: string): XmlElement | undefined {
  return childElements(parent.node, parent.scope).find((e) => e.local === local && (ns === undefined || e.ns === ns));
}

function text(element: XmlElement | undefined): string | undefined {
  if (!element) return undefined;
  const value = element.node['#text'];
  return value === undefined ? '' : String(value);
}

/** Parses a SOAP 1.2 document down to its Header and Body; refuses DTDs (SOAP forbids them) and XML that is not well formed. */
function soapParts(body: Buffer): { header: XmlElement | undefined; body: XmlElement } {
  const xml = body.toString('utf8');
  if (/<!DOCTYPE/i.test(xml)) throw new CoreEnvelopeError('a SOAP message must not contain a DTD');
  if (XMLValidator.validate(xml) !== true) throw new CoreEnvelopeError('the answer is not well-formed XML');
  const root = childElements(xmlParser.parse(xml) as Record<string, unknown>, new Map());
  const envelope = root.find((e) => e.local === 'Envelope');
  if (!envelope) throw new CoreEnvelopeError('the XML is not a SOAP envelope');
  if (envelope.ns !== SOAP_12_NS) throw new SoapVersionMismatch(`the SOAP envelope is not SOAP 1.2 (namespace ${SOAP_12_NS})`);
  const soapBodyElement = child(envelope, 'Body', SOAP_12_NS);
  if (!soapBodyElement) throw new CoreEnvelopeError('the SOAP envelope has no Body');
  return { header: child(envelope, 'Header', SOAP_12_NS), body: soapBodyElement };
}

/** A SOAP envelope of another version (the double answers it with a VersionMismatch fault). */
export class SoapVersionMismatch extends CoreEnvelopeError {}

function soapFields(element: XmlElement, fields: typeof RESPONSE_FIELDS | typeof REQUEST_FIELDS): CoreEnvelope {
  const envelope: CoreEnvelope = { payloadType: '', processingMode: '', payloadId: '', timeStamp: '', senderId: '', receiverId: '', coreRuleVersion: '' };
  for (const [key, name] of fields) {
    const value = text(child(element, name));
    if (value !== undefined) envelope[key] = value;
  }
  return envelope;
}

/** The CORE body element: namespaced by the CORE schema, or without a namespace (seen in the wild). */
function coreElement(body: XmlElement, local: string): XmlElement | undefined {
  const found = child(body, local);
  return found && (found.ns === CORE_NS || found.ns === undefined) ? found : undefined;
}

function qnameValue(value: string | undefined): string | undefined {
  return value === undefined ? undefined : localName(value.trim()).local;
}

/** The named parts of a multipart/form-data body (the first of each name), as text. */
async function formFields(body: Buffer, contentType: string | undefined, names: readonly string[]): Promise<Map<string, string>> {
  if (!contentType || !/^multipart\/form-data\s*;.*boundary=/i.test(contentType)) throw new CoreEnvelopeError('the answer is not multipart/form-data');
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(body), { headers: { 'content-type': contentType } }).formData();
  } catch {
    throw new CoreEnvelopeError('the multipart body cannot be read');
  }
  const fields = new Map<string, string>();
  for (const name of names) {
    const value = form.get(name);
    if (value !== null) fields.set(name, typeof value === 'string' ? value : await value.text());
  }
  return fields;
}

function mimeFields(fields: Map<string, string>, names: typeof RESPONSE_FIELDS | typeof REQUEST_FIELDS): CoreEnvelope {
  const envelope: CoreEnvelope = { payloadType: '', processingMode: '', payloadId: '', timeStamp: '', senderId: '', receiverId: '', coreRuleVersion: '' };
  for (const [key, name] of names) {
    const value = fields.get(name);
    if (value !== undefined) envelope[key] = key === 'payload' ? value : value.trim();
  }
  return envelope;
}

/** Reads a clearinghouse's answer: a COREEnvelopeRealTimeResponse, a SOAP 1.2 Fault, or the MIME parts. */
export async function readCoreResponse(protocol: CoreProtocol, body: Buffer, contentType: string | undefined): Promise<CoreEnvelope> {
  if (protocol === 'mime') return mimeFields(await formFields(body, contentType, RESPONSE_FIELDS.map(([, name]) => name)), RESPONSE_FIELDS);
  const soap = soapParts(body);
  const fault = child(soap.body, 'Fault', SOAP_12_NS);
  if (fault) {
    const code = child(fault, 'Code', SOAP_12_NS);
    const subcode = code && child(code, 'Subcode', SOAP_12_NS);
    const reason = fault && child(fault, 'Reason', SOAP_12_NS);
    const reasonText = reason && text(child(reason, 'Text', SOAP_12_NS));
    const errorCode = qnameValue(text(subcode && child(subcode, 'Value', SOAP_12_NS))) || qnameValue(text(code && child(code, 'Value', SOAP_12_NS))) || reasonText || 'SOAPFault';
    return { payloadType: '', processingMode: '', payloadId: '', timeStamp: '', senderId: '', receiverId: '', coreRuleVersion: '', errorCode, ...(reasonText ? { errorMessage: reasonText } : {}) };
  }
  const response = coreElement(soap.body, 'COREEnvelopeRealTimeResponse');
  if (!response) throw new CoreEnvelopeError('the SOAP Body holds neither a COREEnvelopeRealTimeResponse nor a Fault');
  return soapFields(response, RESPONSE_FIELDS);
}

/** Reads a request (the test double's side): the envelope and the credentials it carries. */
export async function readCoreRequest(protocol: CoreProtocol, body: Buffer, contentType: string | undefined): Promise<CoreEnvelope & { credentials?: CoreCredentials }> {
  if (protocol === 'mime') {
    const fields = await formFields(body, contentType, [...REQUEST_FIELDS.map(([, name]) => name), 'UserName', 'Password']);
    const envelope = mimeFields(fields, REQUEST_FIELDS);
    const username = fields.get('UserName');
    return username === undefined ? envelope : { ...envelope, credentials: { username, password: fields.get('Password') ?? '' } };
  }
  const soap = soapParts(body);
  const request = coreElement(soap.body, 'COREEnvelopeRealTimeRequest');
  if (!request) throw new CoreEnvelopeError('the SOAP Body holds no COREEnvelopeRealTimeRequest');
  const envelope = soapFields(request, REQUEST_FIELDS);
  const security = soap.header && child(soap.header, 'Security', WSSE_NS);
  const token = security && child(security, 'UsernameToken', WSSE_NS);
  const username = token && text(child(token, 'Username', WSSE_NS));
  const password = token && child(token, 'Password', WSSE_NS);
  // Only a plain-text password is a password we can compare; a digest is not supported here.
  const passwordType = password?.node['@_Type'];
  if (username === undefined || (passwordType !== undefined && passwordType !== PASSWORD_TEXT)) return envelope;
  return { ...envelope, credentials: { username, password: text(password) ?? '' } };
}

/** Whether an answer carries a usable 271 or 999 for `request`; otherwise the CORE (or our) error code and why. */
export function checkCoreAnswer(request: CoreEnvelope, answer: CoreEnvelope): { ok: true } | { ok: false; code: string; detail: string } {
  if (answer.errorCode !== SUCCESS) {
    const code = answer.errorCode?.trim() || 'ErrorCodeMissing';
    const message = answer.errorMessage?.trim().slice(0, 200);
    return { ok: false, code, detail: answer.errorCode ? `the clearinghouse refused the envelope: ${code}${message ? ` (${message})` : ''}` : 'the answer carries no ErrorCode' };
  }
  if (answer.payloadId !== request.payloadId) return { ok: false, code: 'PayloadIDMismatch', detail: "the answer's PayloadID does not echo the request's" };
  if (answer.payloadType !== PAYLOAD_271 && answer.payloadType !== PAYLOAD_999) {
    return { ok: false, code: 'UnexpectedPayloadType', detail: `the answer's PayloadType is neither ${PAYLOAD_271} nor ${PAYLOAD_999}` };
  }
  if (!answer.payload?.trim()) return { ok: false, code: 'MissingPayload', detail: 'the answer carries no payload' };
  return { ok: true };
}
