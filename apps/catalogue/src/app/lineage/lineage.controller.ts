import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiContract, AuthUser, CurrentUser } from '@dc/platform';
import { revokeDerivativeResponseSchema } from './lineage-view';
import { LineageService } from './lineage.service';

@Controller('api/records')
export class LineageController {
  constructor(private readonly lineage: LineageService) {}

  /** The source's owner side only; the derivative's maker sees why in its details (`lineage`). */
  @ApiContract({
    summary:
      "Revoke a derivative of the record (one of its `derivatives`): its data, and that of whatever was made from it since, can no longer be downloaded. For the record's owner and its organisation's Data Admins",
    responses: { 200: revokeDerivativeResponseSchema },
  })
  @Post(':id/derivatives/:derivedId/revoke')
  @HttpCode(200)
  revoke(@Param('id') id: string, @Param('derivedId') derivedId: string, @CurrentUser() user: AuthUser) {
    return this.lineage.revoke(id, derivedId, user);
  }
}
