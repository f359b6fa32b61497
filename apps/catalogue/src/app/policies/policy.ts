import type { PolicyAnswer } from '@dc/contracts';

/** One requirement row of an access policy: a topic, what is required, and the answer asked of the requestor. */
export interface PolicyRequirement {
  topic: string;
  requirement: string;
  agree: PolicyAnswer;
}

/** An access policy (spec section 3, Policy) of an organisation. */
export interface Policy {
  id: string;
  organisationId: string;
  ownerId: string;
  /** From the directory; empty when identity's events have not arrived yet. */
  ownerUsername: string;
  name: string;
  fields: PolicyRequirement[];
  version: number;
  created: Date;
  changed: Date;
}
