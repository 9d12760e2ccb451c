import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../../config/app-config';
import { AuditModule } from '../audit/audit.module';
import { AccountSecurityController } from './account-security.controller';
import { AuthController } from './auth.controller';
import { AuthService } from './auth.service';
import { BearerAuthGuard } from './bearer-auth.guard';
import { CognitoIdentityProvider } from './cognito/cognito-identity-provider';
import { IDENTITY_PROVIDER } from './identity-provider';
import { JwksController } from './jwks.controller';
import { JwtStrategy } from './jwt.strategy';
import { RecentAuthenticationGuard } from './recent-authentication.guard';
import { FederatedIdentitiesRepository } from './local/federated-identities.repository';
import { FederatedIdentityEntity } from './local/federated-identity.entity';
import { AccountSecurityRepository } from './local/account-security.repository';
import { LocalIdentityProvider } from './local/local-identity-provider';
import { RecoveryCodesRepository } from './local/recovery-codes.repository';
import { RememberedDevicesRepository } from './local/remembered-devices.repository';
import { RememberedDevicesService } from './local/remembered-devices.service';
import { SignInChallengesRepository } from './local/sign-in-challenges.repository';
import { SignInChallengesService } from './local/sign-in-challenges.service';
import { TwoFactorService } from './local/two-factor.service';
import { RefreshTokenEntity } from './local/refresh-token.entity';
import { RefreshTokensRepository } from './local/refresh-tokens.repository';
import { RefreshTokensService } from './local/refresh-tokens.service';
import { SigningKeyEntity } from './local/signing-key.entity';
import { SigningKeysRepository } from './local/signing-keys.repository';
import { SigningKeysService } from './local/signing-keys.service';
import { SocialAccountsService } from './local/social-accounts.service';
import { TokenIssuerService } from './local/token-issuer.service';
import { VerificationCodeEntity } from './local/verification-code.entity';
import { VerificationCodesRepository } from './local/verification-codes.repository';
import { VerificationCodesService } from './local/verification-codes.service';
import { SocialSignInService } from './social/social-sign-in.service';
import { SocialController } from './social/social.controller';
import { AuthAttemptsService } from './throttling/auth-attempts.service';
import { UserEntity } from './user.entity';
import { UsersRepository } from './users.repository';
import { UsersService } from './users.service';

/**
 * Identity: sign-up, verification, sessions and the bearer guard. Other
 * modules import it for `BearerAuthGuard` and `UsersService`.
 */
@Module({
  imports: [
    AuditModule,
    PassportModule,
    TypeOrmModule.forFeature([UserEntity, SigningKeyEntity, RefreshTokenEntity, VerificationCodeEntity, FederatedIdentityEntity]),
  ],
  controllers: [AuthController, AccountSecurityController, SocialController, JwksController],
  providers: [
    UsersRepository,
    UsersService,
    AuthService,
    AuthAttemptsService,
    SigningKeysService,
    TokenIssuerService,
    RefreshTokensService,
    VerificationCodesService,
    SocialAccountsService,
    SigningKeysRepository,
    RefreshTokensRepository,
    VerificationCodesRepository,
    FederatedIdentitiesRepository,
    AccountSecurityRepository,
    RecoveryCodesRepository,
    RememberedDevicesRepository,
    SignInChallengesRepository,
    TwoFactorService,
    RememberedDevicesService,
    SignInChallengesService,
    LocalIdentityProvider,
    {
      // AUTH_PROVIDER picks the implementation; the Cognito one validates its pool settings when built.
      provide: IDENTITY_PROVIDER,
      inject: [AppConfig, LocalIdentityProvider, UsersService],
      useFactory: (config: AppConfig, local: LocalIdentityProvider, users: UsersService) =>
        config.env.AUTH_PROVIDER === 'cognito' ? new CognitoIdentityProvider(config, users) : local,
    },
    SocialSignInService,
    JwtStrategy,
    BearerAuthGuard,
    RecentAuthenticationGuard,
  ],
  exports: [UsersService, AuthService, BearerAuthGuard, RecentAuthenticationGuard, IDENTITY_PROVIDER, AuthAttemptsService],
})
export class AuthModule {}
