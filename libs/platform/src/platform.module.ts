import { DynamicModule, Global, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { JwtModule } from '@nestjs/jwt';
import { PassportModule } from '@nestjs/passport';
import type { Logger } from 'pino';
import { TOKEN_LIFETIME_SECONDS } from './auth/auth-user';
import { createJwtAuth } from './auth/jwt.strategy';
import { TokenChecks } from './auth/token-checks';
import type { AppConfig } from './config/config';
import { ApiExceptionFilter } from './errors/api-exception.filter';
import { StorableTextInterceptor } from './errors/storable-text';
import { HealthController, HealthRegistry } from './health/health';
import { APP_CONFIG, LOGGER, SERVICE_NAME } from './tokens';

export interface PlatformOptions {
  /** 'gateway' in embedded mode (one process), the service's name in distributed mode. */
  service: string;
  config: AppConfig;
  logger: Logger;
}

/** Config, logging, errors, health and authentication for every service: imported once per process. */
@Global()
@Module({})
export class PlatformModule {
  static forRoot(options: PlatformOptions): DynamicModule {
    const { JwtStrategy, JwtAuthGuard } = createJwtAuth();
    return {
      module: PlatformModule,
      imports: [
        PassportModule,
        JwtModule.register({ secret: options.config.JWT_SECRET, signOptions: { expiresIn: TOKEN_LIFETIME_SECONDS, algorithm: 'HS256' } }),
      ],
      controllers: [HealthController],
      providers: [
        { provide: APP_CONFIG, useValue: options.config },
        { provide: LOGGER, useValue: options.logger },
        { provide: SERVICE_NAME, useValue: options.service },
        HealthRegistry,
        TokenChecks,
        JwtStrategy,
        { provide: APP_GUARD, useClass: JwtAuthGuard },
        { provide: APP_FILTER, useFactory: () => new ApiExceptionFilter(options.logger) },
        // Text PostgreSQL cannot store is a 400 on every route, never a 500 from the database.
        { provide: APP_INTERCEPTOR, useClass: StorableTextInterceptor },
      ],
      exports: [APP_CONFIG, LOGGER, SERVICE_NAME, HealthRegistry, TokenChecks, JwtModule],
    };
  }
}
