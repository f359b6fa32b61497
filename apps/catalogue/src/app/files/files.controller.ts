import { Body, Controller, Get, Put, Param, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { pipeline } from 'node:stream/promises';
import { ApiContract, AuthUser, CurrentUser, DetailError, Public } from '@dc/platform';
import { attachmentContentDisposition } from '@dc/storage';
import { DownloadGrant, DownloadLinks } from '../downloads/download-links';
import { Downloads } from '../downloads/downloads.service';
import { RecordsService } from '../records/records.service';
import { z } from 'zod';
import { fileViewSchema } from '../record-view/record-view';

export const INVALID_LINK = 'This download link is invalid or has expired.';

@Controller('api/files')
export class FilesController {
  constructor(
    private readonly records: RecordsService,
    private readonly downloads: Downloads,
    private readonly links: DownloadLinks,
  ) {}

  /**
   * Where download links point (`/api/files/download?token=...`), for both storage drivers: the
   * token names the record, the file and the holder, and expires after 5 minutes; the holder's
   * access is checked again now (Downloads.openDownload) and the bytes stream from storage.
   */
  @ApiContract({ summary: 'Follow a signed download link: the file itself', query: z.object({ token: z.string() }), responses: { 200: null } })
  @Public()
  @Get('download')
  async download(@Query('token') token: string | undefined, @Res() res: Response): Promise<void> {
    let grant: DownloadGrant;
    try {
      grant = this.links.verify(String(token ?? ''));
    } catch {
      throw new DetailError(INVALID_LINK, 403);
    }
    const file = await this.downloads.openDownload(grant);
    res.status(200);
    res.setHeader('Content-Type', file.contentType);
    res.setHeader('Content-Length', String(file.size));
    res.setHeader('Content-Disposition', attachmentContentDisposition(file.name));
    res.setHeader('Cache-Control', 'private, no-store');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    // A client that goes away mid-download ends the pipeline; nothing is left to answer.
    await pipeline(file.body, res).catch(() => undefined);
  }

  /** File fields: name. Answers the file as FILES shows it. */
  @ApiContract({ summary: 'Rename a file of a record the caller may edit', body: z.object({ name: z.string() }), responses: { 200: fileViewSchema } })
  @Put(':id')
  rename(@Param('id') id: string, @CurrentUser() user: AuthUser, @Body() body: unknown) {
    return this.records.renameFile(id, user, body);
  }
}
