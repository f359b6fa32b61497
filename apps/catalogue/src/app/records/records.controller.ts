import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Req } from '@nestjs/common';
import type { Request } from 'express';
import { AuthUser, CurrentUser, DetailError, Public, SchemaPipe } from '@dc/platform';
import { ObjectStorage } from '@dc/storage';
import { ReceivedForm, receiveMultipart, tooLarge } from './busboy-multipart';
import { UpdateRecordDto, updateRecordSchema } from './dto/update-record.dto';
import { objectKeyFor, RecordsService } from './records.service';

/** Room for the form's text fields and multipart framing on top of the files' budget. */
const FORM_OVERHEAD_BYTES = 10 * 1024 * 1024;

@Controller('api/records')
export class RecordsController {
  constructor(
    private readonly records: RecordsService,
    private readonly storage: ObjectStorage,
  ) {}

  /** multipart/form-data (files stream to the object store), or JSON for a metadata-only record. */
  @Post()
  @HttpCode(201)
  async create(@CurrentUser() user: AuthUser, @Req() req: Request) {
    return this.records.create(user, await this.receive(req));
  }

  /** Anonymous callers see EV records only; the others' ids answer 404 like unknown ones. */
  @Public()
  @Get(':id')
  details(@Param('id') id: string, @CurrentUser() viewer: AuthUser | null) {
    return this.records.details(id, viewer);
  }

  @Put(':id')
  update(@Param('id') id: string, @CurrentUser() user: AuthUser, @Body(new SchemaPipe(updateRecordSchema)) dto: UpdateRecordDto) {
    return this.records.update(id, user, dto);
  }

  @Delete(':id')
  @HttpCode(204)
  async remove(@Param('id') id: string, @CurrentUser() user: AuthUser): Promise<void> {
    await this.records.remove(id, user);
  }

  /** `{url, expires_in, file}`: a signed link valid 5 minutes. `?file=<id>` picks a file; the latest otherwise. */
  @Public()
  @Get(':id/download')
  download(@Param('id') id: string, @Query('file') fileId: string | undefined, @CurrentUser() viewer: AuthUser | null) {
    return this.records.downloadLink(id, viewer, fileId || undefined);
  }

  private async receive(req: Request): Promise<ReceivedForm> {
    const type = (req.headers['content-type'] ?? '').toLowerCase();
    if (type.startsWith('multipart/form-data')) {
      const announced = Number(req.headers['content-length']);
      const maxBytes = this.records.maxUploadBytes;
      // Refused before reading a byte when the client announces more than could ever fit.
      if (Number.isFinite(announced) && announced > maxBytes + FORM_OVERHEAD_BYTES) throw tooLarge(maxBytes);
      return receiveMultipart(req, this.storage, { maxBytes, keyFor: objectKeyFor });
    }
    const body: unknown = req.body;
    if (body && typeof body === 'object' && !Array.isArray(body) && !Buffer.isBuffer(body)) return { fields: body as Record<string, unknown>, files: [] };
    if (!type && (body === undefined || (typeof body === 'object' && body !== null && Object.keys(body).length === 0))) return { fields: {}, files: [] };
    throw new DetailError(`Unsupported media type "${type}": send multipart/form-data or JSON.`, 415);
  }
}
