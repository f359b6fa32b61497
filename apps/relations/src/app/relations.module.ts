import { Module } from '@nestjs/common';
import { ServiceRuntimeModule } from '@dc/platform';

/** The relations service: its schema, outbox and consumer group are ready; its features arrive with their issues. */
@Module({
  imports: [ServiceRuntimeModule.forService({ name: 'relations' })],
})
export class RelationsModule {}
