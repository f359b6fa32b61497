import { Injectable } from '@nestjs/common';
import { stripBidiControls } from '@dc/contracts';
import { AutofillRepository } from './autofill.repository';

export interface AutofillEntry {
  id: string;
  name: string;
}

/** The people and organisations a record can be shared with (custom visibility picker). */
@Injectable()
export class AutofillService {
  constructor(private readonly autofill: AutofillRepository) {}

  async users(query: unknown): Promise<AutofillEntry[]> {
    const users = await this.autofill.activeUsers(filterOf(query));
    return users.map((user) => ({ id: user.id, name: stripBidiControls(`${user.firstName} ${user.lastName} (${user.username})`) }));
  }

  async organisations(query: unknown): Promise<AutofillEntry[]> {
    return (await this.autofill.organisations(filterOf(query))).map((organisation) => ({ ...organisation, name: stripBidiControls(organisation.name) }));
  }
}

/** Matching is by lowercase substring, as the client's autocomplete does. */
function filterOf(query: unknown): string {
  return typeof query === 'string' ? query.trim().toLowerCase().slice(0, 200) : '';
}
