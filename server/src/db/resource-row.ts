// The columns every record table shares (migrations): what reads, renders and exports rely on
// whatever the type.
export interface ResourceRow {
  id: string;
  seq: number;
  version_id: number | string;
  last_updated: string;
}
