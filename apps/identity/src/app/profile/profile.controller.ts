import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiContract, AuthUser, CurrentUser, SchemaPipe, messageResponseSchema } from '@dc/platform';
import { ChangePasswordDto, changePasswordSchema, ProfileInformationDto, profileInformationSchema } from './dto/profile.dto';
import { ProfileService } from './profile.service';
import { userAccountViewSchema } from '../accounts/account.views';

@Controller('api')
export class ProfileController {
  constructor(private readonly profile: ProfileService) {}

  /** The caller, with organisation_details, client_type and permissions. */
  @ApiContract({ summary: 'The caller, with organisation_details, client_type and permissions', responses: { 200: userAccountViewSchema } })
  @Get('account/user-account')
  userAccount(@CurrentUser() caller: AuthUser) {
    return this.profile.userAccount(caller);
  }

  /** `{first_name, last_name}` → the caller, as GET account/user-account. */
  @ApiContract({ summary: "Change the caller's first and last name", body: profileInformationSchema, responses: { 200: userAccountViewSchema } })
  @Put('change-profile-information')
  changeInformation(@CurrentUser() caller: AuthUser, @Body(new SchemaPipe(profileInformationSchema)) dto: ProfileInformationDto) {
    return this.profile.changeInformation(caller, dto);
  }

  /** `{old_password, new_password, new_password_confirm}` → `{message}`; the caller must log in again. */
  @ApiContract({
    summary: "Change the caller's password (every earlier token stops working)",
    body: changePasswordSchema,
    responses: { 200: messageResponseSchema },
  })
  @Put('change-password')
  changePassword(@CurrentUser() caller: AuthUser, @Body(new SchemaPipe(changePasswordSchema)) dto: ChangePasswordDto) {
    return this.profile.changePassword(caller, dto);
  }
}
