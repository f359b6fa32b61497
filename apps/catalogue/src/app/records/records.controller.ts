import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Req } from '@nestjs/common';
import type { Request } from 'express';
import { ApiContract, AuthUser, CurrentUser, DetailError, Public, SchemaPipe } from '@dc/platform';
import { ObjectStorage } from '@dc/storage';
import { UpdateRecordDto, updateRecordSchema } from './dto/update-record.dto';
import { RecordsService } from './records.service';
import { z } from 'zod';
import { Downloads } from '../downloads/downloads.service';
import { EarlyExtractions } from '../extraction/early-extractions';
import { createRecordSchema } from '../record-creation/create-record.dto';
import { RecordCreation } from '../record-creation/record-creation.service';
import { objectKeyFor } from '../record-model/record';
import { recordViewSchema } from '../record-view/record-view';
import { PendingObjects, PendingUpload } from '../recovery/pending-objects';
import { ReceivedForm, receiveMultipart, tooLarge } from '../uploads/busboy-multipart';

const createRecordFormSchema = z.intersection(
  createRecordSchema,
  z.object({
    file: z
      .array(z.string().meta({ format: 'binary' }))
      .optional()
      .describe('the files (multipart only)'),
  }),
);

/** Room for the form's text fields and multipart framing on top of the files' budget. */
const FORM_OVERHEAD_BYTES = 10 * 1024 * 1024;

@Controller('api/records')
export class RecordsController {
  constructor(
    private readonly records: RecordsService,
    private readonly creation: RecordCreation,
    private readonly downloads: Downloads,
    private readonly storage: ObjectStorage,
    private readonly pending: PendingObjects,
    private readonly early: EarlyExtractions,
  ) {}

  /** multipart/form-data (files stream to the object store), or JSON for a metadata-only record. */
  @ApiContract({
    summary: 'Index files (multipart/form-data: `file` parts and the form fields) or make a metadata-only record (JSON)',
    multipart: createRecordFormSchema,
    responses: { 201: z.union([recordViewSchema, z.array(recordViewSchema).describe('one record per file when saved separately')]) },
  })
  @Post()
  @HttpCode(201)
  async create(@CurrentUser() user: AuthUser, @Req() req: Request) {
    // Every object stored is registered first, so a crash before its record exists leaves nothing behind for good.
    const upload = this.pending.upload();
    let form: ReceivedForm | undefined;
    try {
      form = await this.receive(req, upload);
      return await this.creation.create(user, form, upload);
    } catch (error) {
      // No record holds the files: what was learnt of them while they arrived is not needed.
      for (const file of form?.files ?? []) this.early.discard(file.key);
      throw error;
    } finally {
      await upload.end();
    }
  }

  /** Anonymous callers see EV records only; the others' ids answer 404 like unknown ones. */
  @ApiContract({ summary: 'A record with its files and their metadata (anonymous callers: EV records only)', responses: { 200: recordViewSchema } })
  @Public()
  @Get(':id')
  details(@Param('id') id: string, @CurrentUser() viewer: AuthUser | null) {
    return this.records.details(id, viewer);
  }

  @ApiContract({
    summary: "Change a record's metadata, custom fields, access terms, policy, projects or visibility",
    body: updateRecordSchema,
    responses: { 200: recordViewSchema },
  })
  @Put(':id')
  update(@Param('id') id: string, @CurrentUser() user: AuthUser, @Body(new SchemaPipe(updateRecordSchema)) dto: UpdateRecordDto) {
    return this.records.update(id, user, dto);
  }

  @ApiContract({ summary: 'Delete a record and its files', responses: { 204: null } })
  @Delete(':id')
  @HttpCode(204)
  async remove(@Param('id') id: string, @CurrentUser() user: AuthUser): Promise<void> {
    await this.records.remove(id, user);
  }

  /** `{url, expires_in, file}`: a signed link valid 5 minutes. `?file=<id>` picks a file; the latest otherwise. */
  @ApiContract({
    summary: 'A signed download link valid 5 minutes, for those who may download',
    query: z.object({ file: z.string().optional().describe('a file id; the latest file otherwise') }),
    responses: { 200: z.object({ url: z.string(), expires_in: z.number().int(), file: z.object({ id: z.string(), name: z.string() }) }) },
  })
  @Public()
  @Get(':id/download')
  download(@Param('id') id: string, @Query('file') fileId: string | undefined, @CurrentUser() viewer: AuthUser | null) {
    return this.downloads.downloadLink(id, viewer, fileId || undefined);
  }

  private async receive(req: Request, upload: PendingUpload): Promise<ReceivedForm> {
    const type = (req.headers['content-type'] ?? '').toLowerCase();
    if (type.startsWith('multipart/form-data')) {
      const announced = Number(req.headers['content-length']);
      const maxBytes = this.creation.maxUploadBytes;
      // Refused before reading a byte when the client announces more than could ever fit.
      if (Number.isFinite(announced) && announced > maxBytes + FORM_OVERHEAD_BYTES) throw tooLarge(maxBytes);
      const copies = Number.isFinite(announced) ? this.early.forUpload(announced) : undefined;
      return receiveMultipart(req, this.storage, { maxBytes, keyFor: objectKeyFor, beforePut: upload.beforePut, copies });
    }
    const body: unknown = req.body;
    if (body && typeof body === 'object' && !Array.isArray(body) && !Buffer.isBuffer(body)) return { fields: body as Record<string, unknown>, files: [] };
    if (!type && (body === undefined || (typeof body === 'object' && body !== null && Object.keys(body).length === 0))) return { fields: {}, files: [] };
    throw new DetailError(`Unsupported media type "${type}": send multipart/form-data or JSON.`, 415);
  }
}
