import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiContract, AuthUser, CurrentUser, SchemaPipe } from '@dc/platform';
import { mergeScanSchema } from '../compare/dto';
import { mergeScanResponseSchema } from '../compare/responses';
import { MergeScanService } from './merge-scan.service';

@Controller('api/relations')
export class MergeScanController {
  constructor(private readonly scans: MergeScanService) {}

  /** Merge Scan Results: candidate field pairs with total_sim, and the Linking Columns table. Signed-in callers only. */
  @ApiContract({
    summary: 'Merge Scan Results: candidate field pairs across the records, and the Linking Columns table',
    body: mergeScanSchema,
    requestExample: { records: ['0e6c2d1a-3b4f-4c5d-8e6f-7a8b9c0d1e2f', '9a1f2b3c-4d5e-4f60-8a7b-1c2d3e4f5a6b'] },
    responses: { 200: mergeScanResponseSchema },
    example: {
      records: [
        { id: '0e6c2d1a-3b4f-4c5d-8e6f-7a8b9c0d1e2f', name: 'Rainfall' },
        { id: '9a1f2b3c-4d5e-4f60-8a7b-1c2d3e4f5a6b', name: 'Stations' },
      ],
      merge_relations: [
        {
          id: '0e6c2d1a-3b4f-4c5d-8e6f-7a8b9c0d1e2f:4e2a9b7c-1d3e-4f5a-8b6c-7d8e9f0a1b2c:0:2|9a1f2b3c-4d5e-4f60-8a7b-1c2d3e4f5a6b:7b1c2d3e-4f5a-4b6c-9d7e-8f9a0b1c2d3e:0:0',
          record_left: '0e6c2d1a-3b4f-4c5d-8e6f-7a8b9c0d1e2f',
          record_left_name: 'Rainfall',
          record_right: '9a1f2b3c-4d5e-4f60-8a7b-1c2d3e4f5a6b',
          record_right_name: 'Stations',
          header_left: 'station_id',
          header_right: 'id',
          total_sim: 0.81,
        },
      ],
      linking_columns: [],
      messages: [],
    },
  })
  @Post('get-merge-relations')
  @HttpCode(200)
  scan(@CurrentUser() user: AuthUser, @Body(new SchemaPipe(mergeScanSchema)) body: { records: string[] }) {
    return this.scans.scan(user, body.records);
  }
}
