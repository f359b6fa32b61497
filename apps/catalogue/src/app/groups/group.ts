/** An extra label/text field of a project. */
export interface GroupField {
  label: string;
  text: string;
}

/** A project (spec section 3, Group/project) of an organisation. */
export interface Group {
  id: string;
  organisationId: string;
  ownerId: string;
  /** From the directory; empty when identity's events have not arrived yet. */
  ownerUsername: string;
  name: string;
  description: string;
  fields: GroupField[];
  created: Date;
  changed: Date;
}
