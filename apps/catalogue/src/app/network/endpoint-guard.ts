import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig, OutgoingAddressGuard } from '@dc/platform';

/**
 * Where the catalogue connects on a user's behalf (database hosts of connections, S3 endpoints of
 * cloud accounts, DCAT catalogues to import): the product's outgoing address guard (libs/platform),
 * configured from ALLOWED_PRIVATE_ENDPOINTS, so that nobody can make the server reach its own
 * network (server-side request forgery).
 */
@Injectable()
export class EndpointGuard extends OutgoingAddressGuard {
  constructor(@Inject(APP_CONFIG) config: Pick<AppConfig, 'ALLOWED_PRIVATE_ENDPOINTS'>) {
    super(config.ALLOWED_PRIVATE_ENDPOINTS);
  }
}
