import { Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig, ServiceRuntimeModule, SecretCipher } from '@dc/platform';
import { AccountsController } from './accounts/accounts.controller';
import { AccountsRepository } from './accounts/accounts.repository';
import { AccountsService } from './accounts/accounts.service';
import { OrganisationEntity } from './accounts/organisation.entity';
import { UserEntity } from './accounts/user.entity';
import { ActivationController } from './activation/activation.controller';
import { ActivationRepository } from './activation/activation.repository';
import { ActivationService } from './activation/activation.service';
import { ApiKeysController } from './api-keys/api-keys.controller';
import { ApiKeysRepository } from './api-keys/api-keys.repository';
import { ApiKeysService } from './api-keys/api-keys.service';
import { LoginController } from './auth/login.controller';
import { LogoutController } from './auth/logout.controller';
import { RevokedTokens } from './auth/revoked-tokens.repository';
import { RevocationList } from './auth/revocation-list';
import { LoginRepository } from './auth/login.repository';
import { LoginService } from './auth/login.service';
import { LoginThrottle } from './auth/login-throttle';
import { LoginThrottleRepository } from './auth/login-throttle.repository';
import { CurrentAccountTokenCheck } from './auth/token-check';
import { TokenIssuer } from './auth/token-issuer';
import { TokenStatusController } from './auth/token-status.controller';
import { AutofillController } from './autofill/autofill.controller';
import { AutofillRepository } from './autofill/autofill.repository';
import { AutofillService } from './autofill/autofill.service';
import { IdentityMailer } from './mail/identity-mailer';
import { IdentityInitial1763780000000 } from './migrations/1763780000000-identity-initial';
import { IdentityAccounts1763790000000 } from './migrations/1763790000000-identity-accounts';
import { ApiKeySecretVerifier1764200000000 } from './migrations/1764200000000-api-key-secret-verifier';
import { ThrottlePairsRevokedTokens1764300000000 } from './migrations/1764300000000-throttle-pairs-revoked-tokens';
import { OrganisationController } from './organisation/organisation.controller';
import { OrganisationRepository } from './organisation/organisation.repository';
import { OrganisationService } from './organisation/organisation.service';
import { PasswordResetController } from './password-reset/password-reset.controller';
import { PasswordResetRepository } from './password-reset/password-reset.repository';
import { PasswordResetService } from './password-reset/password-reset.service';
import { ProfileController } from './profile/profile.controller';
import { ProfileRepository } from './profile/profile.repository';
import { ProfileService } from './profile/profile.service';
import { RegistrationController } from './registration/registration.controller';
import { RegistrationRepository } from './registration/registration.repository';
import { RegistrationService } from './registration/registration.service';
import { Argon2PasswordHasher, PasswordHasher } from './security/password-hasher';
import { PasswordPolicy } from './security/password-policy';
import { MailRequestedConsumer } from './mail/mail-requested.consumer';
import { AccountsRepublisher } from './reindex/accounts-republisher';
import { SingleSignOn1764424000000 } from './migrations/1764424000000-single-sign-on';
import { IdentityProviderClient } from './single-sign-on/identity-provider-client';
import { OpenIdClientProvider } from './single-sign-on/openid-client-provider';
import { ProviderAddressGuard } from './single-sign-on/provider-address-guard';
import { SsoLoginController, SsoSettingsController } from './single-sign-on/sso.controller';
import { SsoLoginService } from './single-sign-on/sso-login.service';
import { SsoRepository } from './single-sign-on/sso.repository';
import { SsoSettingsService } from './single-sign-on/sso-settings.service';

@Module({
  imports: [
    ServiceRuntimeModule.forService({
      name: 'identity',
      entities: [OrganisationEntity, UserEntity],
      migrations: [
        IdentityInitial1763780000000,
        IdentityAccounts1763790000000,
        ApiKeySecretVerifier1764200000000,
        ThrottlePairsRevokedTokens1764300000000,
        SingleSignOn1764424000000,
      ],
    }),
  ],
  // ProfileController first: its GET api/account/user-account must win over AccountsController's GET api/account/:id.
  controllers: [
    ProfileController,
    RegistrationController,
    ActivationController,
    LoginController,
    LogoutController,
    PasswordResetController,
    OrganisationController,
    AccountsController,
    AutofillController,
    ApiKeysController,
    TokenStatusController,
    SsoSettingsController,
    SsoLoginController,
  ],
  providers: [
    MailRequestedConsumer,
    AccountsRepublisher,
    { provide: PasswordHasher, useClass: Argon2PasswordHasher },
    { provide: SecretCipher, inject: [APP_CONFIG], useFactory: (config: AppConfig) => SecretCipher.fromBase64Key(config.ENCRYPTION_KEY) },
    IdentityMailer,
    PasswordPolicy,
    TokenIssuer,
    LoginThrottle,
    LoginThrottleRepository,
    CurrentAccountTokenCheck,
    RevokedTokens,
    RevocationList,
    RegistrationService,
    RegistrationRepository,
    ActivationService,
    ActivationRepository,
    LoginService,
    LoginRepository,
    PasswordResetService,
    PasswordResetRepository,
    ProfileService,
    ProfileRepository,
    OrganisationService,
    OrganisationRepository,
    AccountsService,
    AccountsRepository,
    AutofillService,
    AutofillRepository,
    ApiKeysService,
    ApiKeysRepository,
    ProviderAddressGuard,
    { provide: IdentityProviderClient, useClass: OpenIdClientProvider },
    SsoRepository,
    SsoSettingsService,
    SsoLoginService,
  ],
})
export class IdentityModule {}
