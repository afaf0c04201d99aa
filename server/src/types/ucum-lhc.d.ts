// The part of @lhncbc/ucum-lhc (which ships no types) that ofctx uses.
declare module '@lhncbc/ucum-lhc' {
  interface UnitValidation {
    status: 'valid' | 'invalid' | 'error';
    ucumCode: string | null;
    msg: string[];
  }
  interface UcumLhcUtils {
    validateUnitString(unit: string, suggest?: boolean): UnitValidation;
  }
  const ucum: { UcumLhcUtils: { getInstance(): UcumLhcUtils } };
  export default ucum;
}
