import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiContract, AuthUser, CurrentUser, SchemaPipe } from '@dc/platform';
import { MERGE_SCAN_CONTRACT } from './merge-scan.contract';
import { MergeScanService } from './merge-scan.service';
import { mergeScanSchema } from './merge.dto';

@Controller('api/relations')
export class MergeScanController {
  constructor(private readonly scans: MergeScanService) {}

  /** Merge Scan Results: candidate field pairs with total_sim, and the Linking Columns table. Signed-in callers only. */
  @ApiContract(MERGE_SCAN_CONTRACT)
  @Post('get-merge-relations')
  @HttpCode(200)
  scan(@CurrentUser() user: AuthUser, @Body(new SchemaPipe(mergeScanSchema)) body: { records: string[] }) {
    return this.scans.scan(user, body.records);
  }
}
