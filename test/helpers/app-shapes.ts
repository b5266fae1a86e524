/** An application as `GET /v3/app` answers it, with its navigation tree. */
export interface WireApp {
  appId: string;
  organizationId: string;
  name: string;
  description: string;
  icon: string;
  color: string;
  sections: WireSection[];
}

/** A section of the navigation: its items (worksheets, pages) and child sections. */
export interface WireSection {
  id: string;
  name: string;
  items: Array<{ id: string; type: number; name: string }>;
  childSections: WireSection[];
}
