// Reference data for synthetic residents: LOINC vital signs (R4 vital-signs profile),
// payers, and the service's own allergen vocabulary.
export const LOINC = 'http://loinc.org';
export const UCUM = 'http://unitsofmeasure.org';
export const ALLERGEN_SYSTEM = 'https://ofctx.example/fhir/CodeSystem/allergen';

export const FAMILY_NAMES = ['Okafor', 'Nguyen', 'Garcia', 'Smith', 'Kowalski', 'Haddad', 'Johansson', 'Patel', 'Rossi', 'Yamamoto', 'Oduya', 'Fischer', 'Brown', 'Moreau', 'Silva', 'Chen'];
export const GIVEN_NAMES = ['Adaeze', 'Grace', 'Minh', 'Rosa', 'Walter', 'Irena', 'Samir', 'Ingrid', 'Ravi', 'Lucia', 'Hiroshi', 'Ruth', 'Arthur', 'Elise', 'João', 'Mei', 'Harold', 'Edna'];

export const PAYERS = ['Medicare Part A', 'Medicare Part B', 'Medicaid', 'Humana Gold Plus', 'Aetna Medicare Advantage', 'UnitedHealthcare AARP', 'Blue Cross Blue Shield'];

export const ALLERGENS = [
  { code: 'PCN', display: 'Penicillin' },
  { code: 'SULFA', display: 'Sulfonamide antibiotics' },
  { code: 'LATEX', display: 'Latex' },
  { code: 'PNUT', display: 'Peanut' },
  { code: 'SHELL', display: 'Shellfish' },
  { code: 'ASA', display: 'Aspirin' },
  { code: 'COD', display: 'Codeine' },
  { code: 'EGG', display: 'Egg' },
] as const;

export const BLOOD_PRESSURE = {
  panel: { code: '85354-9', display: 'Blood pressure panel' },
  systolic: { code: '8480-6', display: 'Systolic blood pressure' },
  diastolic: { code: '8462-4', display: 'Diastolic blood pressure' },
  unit: 'mm[Hg]',
};

export const SINGLE_VALUE_VITALS = [
  { code: '8867-4', display: 'Heart rate', unit: '/min', min: 55, max: 100, decimals: 0 },
  { code: '9279-1', display: 'Respiratory rate', unit: '/min', min: 12, max: 22, decimals: 0 },
  { code: '8310-5', display: 'Body temperature', unit: 'Cel', min: 36.1, max: 37.9, decimals: 1 },
  { code: '29463-7', display: 'Body weight', unit: 'kg', min: 42, max: 110, decimals: 1 },
  { code: '59408-5', display: 'Oxygen saturation in Arterial blood by Pulse oximetry', unit: '%', min: 90, max: 100, decimals: 0 },
] as const;
