import { Injectable } from '@nestjs/common';
import { hashToken } from '../security/one-time-token';
import { ActivationRepository } from './activation.repository';

@Injectable()
export class ActivationService {
  constructor(private readonly activations: ActivationRepository) {}

  /** True when the token activated its account; unknown, used and expired tokens all give false. */
  async activate(token: unknown): Promise<boolean> {
    if (typeof token !== 'string' || token.length === 0 || token.length > 200) return false;
    return this.activations.activate(hashToken(token));
  }
}
