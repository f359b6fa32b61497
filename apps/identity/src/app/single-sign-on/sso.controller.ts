import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Put, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { z } from 'zod';
import { APP_CONFIG, ApiContract, type AppConfig, AuthUser, CurrentUser, Public, SchemaPipe } from '@dc/platform';
import {
  SsoExchangeDto,
  ssoCallbackQuerySchema,
  ssoExchangeSchema,
  ssoProvidersSchema,
  SsoSettingsDto,
  ssoSettingsSchema,
  ssoSettingsViewSchema,
} from './dto/sso.dto';
import { callbackPath, SSO_BROWSER_COOKIE, ATTEMPT_TTL_MS } from './sso';
import { SsoLinks, SsoLoginService, SsoStep } from './sso-login.service';
import { SsoSettingsService } from './sso-settings.service';

/** The gateway's address as users reach it; the callback registered at providers lives under it. */
function publicUrl(config: AppConfig): string {
  return (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, '');
}

function links(config: AppConfig): SsoLinks {
  const base = publicUrl(config);
  return { redirectUri: `${base}${callbackPath}`, completion: (code) => `${base}/#/login/sso?result=${encodeURIComponent(code)}` };
}

/** The organisation's OpenID Connect provider, for its Data Admins. */
@Controller('api/sso/settings')
export class SsoSettingsController {
  constructor(
    private readonly settings: SsoSettingsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @ApiContract({
    summary: "The organisation's single sign-on provider (Data Admin); the client secret is never returned",
    responses: { 200: ssoSettingsViewSchema },
  })
  @Get()
  get(@CurrentUser() caller: AuthUser) {
    return this.settings.get(caller, links(this.config).redirectUri);
  }

  @ApiContract({
    summary: "Set the organisation's single sign-on provider (Data Admin); its discovery document is read first",
    body: ssoSettingsSchema,
    requestExample: {
      name: 'Example Keycloak',
      issuer: 'https://sso.example.org/realms/example',
      client_id: 'data-catalogue',
      client_secret: 's3cr3t',
      allowed_domains: ['example.org'],
      client_type: 'BASIC',
    },
    responses: { 200: ssoSettingsViewSchema },
  })
  @Put()
  save(@CurrentUser() caller: AuthUser, @Body(new SchemaPipe(ssoSettingsSchema)) dto: SsoSettingsDto) {
    return this.settings.save(caller, dto, links(this.config).redirectUri);
  }

  @ApiContract({ summary: "Remove the organisation's single sign-on provider (Data Admin); linked accounts stay", responses: { 204: null } })
  @Delete()
  @HttpCode(204)
  async remove(@CurrentUser() caller: AuthUser): Promise<void> {
    await this.settings.remove(caller);
  }
}

/** Sign-in with a provider: the browser's navigation (start, callback) and the web app's exchange. */
@Controller('api/sso')
export class SsoLoginController {
  constructor(
    private readonly login: SsoLoginService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @ApiContract({ summary: 'The providers the login screen offers ("Sign in with <name>")', responses: { 200: ssoProvidersSchema } })
  @Public()
  @Get('providers')
  providers() {
    return this.login.providers();
  }

  @ApiContract({
    summary: "Start a sign-in with the provider: redirects to the provider's authorization endpoint (code flow, PKCE, state, nonce)",
    responses: { 302: null },
  })
  @Public()
  @Get('providers/:id/start')
  async start(@Param('id') id: string, @Res() res: Response) {
    const step = await this.login.start(id, links(this.config));
    this.redirect(res, step);
  }

  @ApiContract({
    summary: "The provider's redirect back (the redirect URI to register): redirects to the web app's completion page with a one-time result",
    query: ssoCallbackQuerySchema,
    responses: { 302: null },
  })
  @Public()
  @Get('callback')
  async callback(@Query(new SchemaPipe(ssoCallbackQuerySchema)) query: z.infer<typeof ssoCallbackQuerySchema>, @Req() req: Request, @Res() res: Response) {
    const rawQuery = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?')) : '';
    const step = await this.login.callback(query, rawQuery, readCookie(req, SSO_BROWSER_COOKIE), links(this.config));
    res.clearCookie(SSO_BROWSER_COOKIE, this.cookieOptions());
    this.redirect(res, step);
  }

  @ApiContract({
    summary: "Exchange the one-time result of a sign-in for the product's JWT (or the sign-in's error)",
    body: ssoExchangeSchema,
    responses: { 200: z.object({ token: z.string() }) },
  })
  @Public()
  @Post('exchange')
  @HttpCode(200)
  exchange(@Body(new SchemaPipe(ssoExchangeSchema)) dto: SsoExchangeDto) {
    return this.login.exchange(dto.result);
  }

  private cookieOptions() {
    return { httpOnly: true, sameSite: 'lax' as const, secure: publicUrl(this.config).startsWith('https:'), path: '/api/sso' };
  }

  private redirect(res: Response, step: SsoStep): void {
    if (step.browserToken) res.cookie(SSO_BROWSER_COOKIE, step.browserToken, { ...this.cookieOptions(), maxAge: ATTEMPT_TTL_MS });
    res.setHeader('Cache-Control', 'no-store');
    res.redirect(302, step.location);
  }
}

function readCookie(req: Request, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key !== name) continue;
    try {
      return decodeURIComponent(value.join('='));
    } catch {
      return undefined;
    }
  }
  return undefined;
}
