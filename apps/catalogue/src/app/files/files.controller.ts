import { Body, Controller, Get, Put, Param, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { pipeline } from 'node:stream/promises';
import { AuthUser, CurrentUser, DetailError, Public } from '@dc/platform';
import { attachmentContentDisposition, ObjectNotFoundError, ObjectStorage, SignedLink } from '@dc/storage';
import { RecordsService } from '../records/records.service';
import { DownloadLinks } from './download-links';

export const INVALID_LINK = 'This download link is invalid or has expired.';

@Controller('api/files')
export class FilesController {
  constructor(
    private readonly records: RecordsService,
    private readonly storage: ObjectStorage,
    private readonly links: DownloadLinks,
  ) {}

  /**
   * Where the filesystem adapter's signed links point (`/api/files/download?token=...`): the token
   * is the only credential, it names the object and expires after 5 minutes.
   */
  @Public()
  @Get('download')
  async download(@Query('token') token: string | undefined, @Res() res: Response): Promise<void> {
    let link: SignedLink;
    try {
      link = this.links.verify(String(token ?? ''));
    } catch {
      throw new DetailError(INVALID_LINK, 403);
    }
    const stat = await this.storage.stat(link.key);
    if (!stat) throw new DetailError('Not found.', 404);
    let body;
    try {
      body = await this.storage.get(link.key);
    } catch (error) {
      if (error instanceof ObjectNotFoundError) throw new DetailError('Not found.', 404);
      throw error;
    }
    res.status(200);
    res.setHeader('Content-Type', stat.contentType ?? 'application/octet-stream');
    res.setHeader('Content-Length', String(stat.size));
    res.setHeader('Content-Disposition', attachmentContentDisposition(link.fileName ?? link.key.split('/').pop()!));
    res.setHeader('Cache-Control', 'private, no-store');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    // A client that goes away mid-download ends the pipeline; nothing is left to answer.
    await pipeline(body, res).catch(() => undefined);
  }

  /** File fields: name. Answers the file as FILES shows it. */
  @Put(':id')
  rename(@Param('id') id: string, @CurrentUser() user: AuthUser, @Body() body: unknown) {
    return this.records.renameFile(id, user, body);
  }
}
