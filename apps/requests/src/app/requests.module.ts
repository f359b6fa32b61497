import { Module } from '@nestjs/common';
import { ServiceRuntimeModule } from '@dc/platform';

/** The requests service: its schema, outbox and consumer group are ready; its features arrive with their issues. */
@Module({
  imports: [ServiceRuntimeModule.forService({ name: 'requests' })],
})
export class RequestsModule {}
