import { Body, Controller, Get, Param, Put } from '@nestjs/common';
import { ApiContract, AuthUser, CurrentUser, SchemaPipe } from '@dc/platform';
import { OrganisationDto, organisationSchema } from './dto/organisation.dto';
import { OrganisationService } from './organisation.service';
import { organisationViewSchema } from '../accounts/account.views';

@Controller('api/organisation')
export class OrganisationController {
  constructor(private readonly organisations: OrganisationService) {}

  /** `{id, name, email, description, userprofile_set}` of the caller's own organisation. */
  @ApiContract({ summary: "The caller's organisation", responses: { 200: organisationViewSchema } })
  @Get(':id')
  get(@CurrentUser() caller: AuthUser, @Param('id') id: string) {
    return this.organisations.get(caller, id);
  }

  /** `{name, email?, description?}`; needs account.change_organisation. */
  @ApiContract({
    summary: "Change the caller's organisation (account.change_organisation)",
    body: organisationSchema,
    responses: { 200: organisationViewSchema },
  })
  @Put(':id')
  update(@CurrentUser() caller: AuthUser, @Param('id') id: string, @Body(new SchemaPipe(organisationSchema)) dto: OrganisationDto) {
    return this.organisations.update(caller, id, dto);
  }
}
