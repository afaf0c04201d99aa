// The code systems and codes an Observation's category is read from: LOINC's vital-sign codes
// (FHIR's vital signs profile) make an Observation `vital-signs`; the renderer, the R4 search
// and the HL7 OBX reader agree through these.
export const LOINC = 'http://loinc.org';
export const VITAL_SIGN_CODES = ['85354-9', '8480-6', '8462-4', '8867-4', '9279-1', '8310-5', '29463-7', '59408-5', '2708-6', '8302-2', '39156-5', '9843-4'];
export const OBSERVATION_CATEGORY = 'http://terminology.hl7.org/CodeSystem/observation-category';
