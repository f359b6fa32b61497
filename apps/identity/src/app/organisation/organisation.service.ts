import { Injectable } from '@nestjs/common';
import { isUuid, Permission } from '@dc/contracts';
import { AuthUser, notFound } from '@dc/platform';
import { Organisation } from '../accounts/account';
import { toOrganisationDetails } from '../accounts/account.views';
import { requirePermission } from '../accounts/permissions';
import { OrganisationDto } from './dto/organisation.dto';
import { OrganisationRepository } from './organisation.repository';

@Injectable()
export class OrganisationService {
  constructor(private readonly organisations: OrganisationRepository) {}

  /** Members only: any other id, existing or not, is not found. */
  async get(caller: AuthUser, id: string) {
    return this.view(await this.ownOrganisation(caller, id));
  }

  async update(caller: AuthUser, id: string, dto: OrganisationDto) {
    await this.ownOrganisation(caller, id);
    requirePermission(caller, Permission.ChangeOrganisation);
    const changes: Partial<Omit<Organisation, 'id'>> = { name: dto.name };
    if (dto.email !== undefined) changes.email = dto.email;
    if (dto.description !== undefined) changes.description = dto.description;
    const updated = await this.organisations.update(id, changes);
    if (!updated) throw notFound();
    return this.view(updated);
  }

  private async ownOrganisation(caller: AuthUser, id: string): Promise<Organisation> {
    if (!isUuid(id) || id.toLowerCase() !== caller.organisationId.toLowerCase()) throw notFound();
    const organisation = await this.organisations.find(id);
    if (!organisation) throw notFound();
    return organisation;
  }

  private async view(organisation: Organisation) {
    return { ...toOrganisationDetails(organisation), userprofile_set: await this.organisations.memberIds(organisation.id) };
  }
}
