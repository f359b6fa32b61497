import { Controller, HttpCode, Post, Req } from '@nestjs/common';
import type { Request } from 'express';
import { z } from 'zod';
import { ApiContract, AuthUser, CurrentUser, DetailError, FieldValidationError } from '@dc/platform';
import { receiveCatalogue } from './catalogue-upload';
import { type HarvestInput, HarvestsService } from './harvests.service';

const harvestFormSchema = z.object({
  url: z.string().optional().describe('JSON or a form field: the address of a DCAT catalogue (Turtle or JSON-LD), fetched by the server'),
  file: z.string().meta({ format: 'binary' }).optional().describe('multipart only: the catalogue itself (Turtle or JSON-LD)'),
});

const harvestStartedSchema = z.object({
  job_id: z.string().describe('The HARVEST job on the Jobs page (/api/tasks/)'),
  source: z.string().describe('The URL or file name imported'),
  datasets: z.number().int().describe('Datasets found, to be imported'),
  detail: z.string(),
});

/** Room for multipart framing on top of the catalogue's own bytes. */
const FORM_OVERHEAD_BYTES = 256 * 1024;

@Controller('api/harvests')
export class HarvestsController {
  constructor(private readonly harvests: HarvestsService) {}

  /** JSON {url}, or multipart/form-data with the catalogue as `file`; 202 with the job, which imports in the background. */
  @ApiContract({
    summary: "Import a DCAT catalogue's datasets as metadata-only records of your organisation (a background HARVEST job)",
    multipart: harvestFormSchema,
    responses: { 202: harvestStartedSchema },
  })
  @Post()
  @HttpCode(202)
  async start(@CurrentUser() user: AuthUser, @Req() req: Request) {
    return this.harvests.start(user, await this.inputOf(req));
  }

  private async inputOf(req: Request): Promise<HarvestInput> {
    const type = (req.headers['content-type'] ?? '').toLowerCase();
    if (type.startsWith('multipart/form-data')) {
      const announced = Number(req.headers['content-length']);
      const maxBytes = this.harvests.maxBytes;
      if (Number.isFinite(announced) && announced > maxBytes + FORM_OVERHEAD_BYTES)
        throw new FieldValidationError({ file: [`The catalogue is larger than ${maxBytes} bytes, the most an import reads (HARVEST_MAX_BYTES).`] });
      const upload = await receiveCatalogue(req, maxBytes);
      return upload.fileName === '' && upload.fields.url ? { url: upload.fields.url } : { upload };
    }
    const body: unknown = req.body;
    if (body && typeof body === 'object' && !Array.isArray(body) && !Buffer.isBuffer(body)) {
      const url = (body as Record<string, unknown>).url;
      if (typeof url !== 'string' || url.trim() === '') throw new FieldValidationError({ url: ['This field is required.'] });
      return { url };
    }
    throw new DetailError(`Unsupported media type "${type}": send JSON {"url"} or multipart/form-data with the file.`, 415);
  }
}
