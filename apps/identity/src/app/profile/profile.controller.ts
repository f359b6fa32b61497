import { Body, Controller, Get, Put } from '@nestjs/common';
import { AuthUser, CurrentUser, SchemaPipe } from '@dc/platform';
import { ChangePasswordDto, changePasswordSchema, ProfileInformationDto, profileInformationSchema } from './dto/profile.dto';
import { ProfileService } from './profile.service';

@Controller('api')
export class ProfileController {
  constructor(private readonly profile: ProfileService) {}

  /** The caller, with organisation_details, client_type and permissions. */
  @Get('account/user-account')
  userAccount(@CurrentUser() caller: AuthUser) {
    return this.profile.userAccount(caller);
  }

  /** `{first_name, last_name}` → the caller, as GET account/user-account. */
  @Put('change-profile-information')
  changeInformation(@CurrentUser() caller: AuthUser, @Body(new SchemaPipe(profileInformationSchema)) dto: ProfileInformationDto) {
    return this.profile.changeInformation(caller, dto);
  }

  /** `{old_password, new_password, new_password_confirm}` → `{message}`; the caller must log in again. */
  @Put('change-password')
  changePassword(@CurrentUser() caller: AuthUser, @Body(new SchemaPipe(changePasswordSchema)) dto: ChangePasswordDto) {
    return this.profile.changePassword(caller, dto);
  }
}
