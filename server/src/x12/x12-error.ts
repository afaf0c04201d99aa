// A refused X12 interchange: what is wrong and where (segment, its position and line), so the
// sender can find it. Nothing of a refused interchange is applied.
export class X12Error extends Error {
  constructor(
    message: string,
    /** `segment 12 (DTP, line 13), DTP02`, or `ISA` for the envelope. */
    readonly where: string,
  ) {
    super(`${where}: ${message}`);
  }
}
