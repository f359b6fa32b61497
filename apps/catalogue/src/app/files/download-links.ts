import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig, downloadLinkKey } from '@dc/platform';
import { SignedLink, SignedLinkSigner } from '@dc/storage';

/**
 * Verifies the filesystem adapter's download tokens with the key the platform's
 * InfrastructureModule signs them with.
 */
@Injectable()
export class DownloadLinks {
  private readonly signer: SignedLinkSigner;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    if (!config.JWT_SECRET) throw new Error('JWT_SECRET is not set: download links are signed with a key derived from it');
    this.signer = new SignedLinkSigner(downloadLinkKey(config.JWT_SECRET));
  }

  /** Throws InvalidSignedLinkError (malformed, bad signature, expired). */
  verify(token: string): SignedLink {
    return this.signer.verify(token);
  }
}
