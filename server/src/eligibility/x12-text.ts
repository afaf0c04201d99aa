// What an X12 element may carry, for the 270 ofctx writes. Names are normalised the way CAQH
// CORE 258 expects submitters to send them (upper case, no punctuation the payer's matching
// would trip on, single spaces); identifiers are never altered, only refused, because a
// member id changed by us would silently ask about someone else.

/** The separators ofctx's interchanges use (ISA: element, segment, component, repetition). */
export const X12_DELIMITERS = ['*', '~', ':', '^'] as const;

/**
 * The X12 basic and extended character sets (X12.6): letters, digits, space and
 * ! " & ' ( ) * + , - . / : ; ? = % @ [ ] _ { } \ | < > ~ ^ # $ `.
 */
const X12_EXTENDED = /[A-Za-z0-9 !"&'()*+,\-./:;?=%@[\]_{}\\|<>~^#$`]/;

function isCarried(char: string): boolean {
  return X12_EXTENDED.test(char) && !(X12_DELIMITERS as readonly string[]).includes(char);
}

/**
 * A name as an X12 element: accents dropped (JOSÉ → JOSE rather than JOS), upper case,
 * delimiters and characters outside the extended set removed, white space collapsed.
 */
export function normaliseX12Text(value: string): string {
  return [...value.normalize('NFD').toUpperCase()]
    .map((char) => (/\s/.test(char) ? ' ' : char))
    .filter((char) => char === ' ' || isCarried(char))
    .join('')
    .replace(/ {2,}/g, ' ')
    .trim();
}

/** True when `value` can be sent as it is: no delimiter, nothing outside the extended set. */
export function isX12Identifier(value: string): boolean {
  return [...value].every(isCarried);
}
