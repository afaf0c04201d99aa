// The text of one MLLP frame as the applier reads it and the message store keeps it.
//
// WHY: @medplum/hl7's Hl7Connection parsed every frame into an Hl7Message, only for the
// listener to turn it back into text (toString) and the applier to parse that text again
// (message-applier.ts, readMessage): two parses and a serialization per message, about a
// twentieth of the service's time on a one-sender ORU^R01 stream (V8 profile, 2026-11-29).
// Hl7Message.parse splits segments on any run of CR and LF and toString joins them with CR;
// fields are split and joined back unchanged. So the same text comes from the decoded frame
// by that split and join alone (a test compares both on every real sample and on edge cases).
// Hl7Connection still frames and encodes the answers (mllp-listener.ts).

/** A frame (VT, message, FS CR) as text: UTF-8, segments separated by CR, no blank lines. */
export function frameText(frame: Buffer): string {
  const text = frame.subarray(1, frame.length - 2).toString('utf8');
  // Only what starts like a message is a message; anything else is answered from its text as sent.
  return text.startsWith('MSH') ? text.split(/[\r\n]+/).join('\r') : text;
}
