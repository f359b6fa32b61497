import { Module } from '@nestjs/common';
import { ServiceRuntimeModule } from '@dc/platform';

/** The jobs service: its schema, outbox and consumer group are ready; its features arrive with their issues. */
@Module({
  imports: [ServiceRuntimeModule.forService({ name: 'jobs' })],
})
export class JobsModule {}
