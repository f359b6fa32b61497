import { Controller, Get, Param, Query, Req, Res } from '@nestjs/common';
import { ApiProduces } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { Quad } from 'n3';
import { z } from 'zod';
import { ApiContract, DetailError, Public } from '@dc/platform';
import { Downloads } from '../downloads/downloads.service';
import { JSON_LD, TURTLE } from './dcat-vocabulary';
import { DCAT_MAX_PAGE_SIZE, DCAT_PAGE_SIZE, DcatService } from './dcat.service';
import { type RdfFormat, serialise } from './rdf-serialisation';
import { schemaOrgDatasetSchema } from './schema-org';

const formatQuery = z.object({
  format: z.enum(['ttl', 'turtle', 'jsonld']).optional().describe('overrides the Accept header: ttl or turtle for Turtle, jsonld for JSON-LD'),
});
const catalogQuery = formatQuery.extend({
  page: z.number().int().min(1).optional().describe('1-based page number (hydra:first / next / last name them)'),
  page_size: z.number().int().min(1).max(DCAT_MAX_PAGE_SIZE).optional().describe(`datasets per page, ${DCAT_PAGE_SIZE} unless given`),
});
/** Turtle is text, JSON-LD an object: both media types are listed (ApiProduces) with this schema. */
const rdfDocument = z
  .union([z.string().describe('Turtle (text/turtle)'), z.record(z.string(), z.unknown()).describe('JSON-LD (application/ld+json)')])
  .describe('RDF: Turtle (text/turtle, the default) or JSON-LD (application/ld+json) as the Accept header or `format` asks; see docs/dcat.md');

const NOT_ACCEPTABLE = 'This resource is published as text/turtle or application/ld+json: ask for one of them in the Accept header.';

/** Turtle unless the caller asks for JSON-LD (?format= first, then Accept); 406 for an Accept that names neither. */
export function negotiate(req: Request): RdfFormat {
  const format = typeof req.query.format === 'string' ? req.query.format.toLowerCase() : '';
  if (format === 'jsonld') return JSON_LD;
  if (format === 'ttl' || format === 'turtle') return TURTLE;
  if (!req.headers.accept) return TURTLE;
  const chosen = req.accepts([TURTLE, JSON_LD, 'application/json']);
  if (!chosen) throw new DetailError(NOT_ACCEPTABLE, 406);
  return chosen === TURTLE ? TURTLE : JSON_LD;
}

async function send(req: Request, res: Response, quads: () => Promise<Quad[]>): Promise<void> {
  const format = negotiate(req);
  const body = await serialise(await quads(), format);
  res.setHeader('Vary', 'Accept');
  res.type(format === TURTLE ? 'text/turtle; charset=utf-8' : 'application/ld+json; charset=utf-8').send(body);
}

/**
 * The DCAT-AP 3.0.1 publication of the records everyone may see, for harvesters (CKAN, data.europa.eu),
 * and the schema.org Dataset of a public record's page. Anonymous: nothing here is more than an
 * anonymous visitor sees (docs/dcat.md).
 */
@Controller('api/dcat')
export class DcatController {
  constructor(
    private readonly dcat: DcatService,
    private readonly downloads: Downloads,
  ) {}

  @ApiContract({
    summary: 'The DCAT-AP 3.0.1 catalogue of the records everyone may see, one page (Hydra paging); Turtle or JSON-LD',
    query: catalogQuery,
    responses: { 200: rdfDocument },
  })
  @ApiProduces(TURTLE, JSON_LD)
  @Public()
  @Get('catalog')
  async catalog(@Req() req: Request, @Res() res: Response, @Query() query: Record<string, unknown>): Promise<void> {
    await send(req, res, () => this.dcat.catalogPage(query));
  }

  @ApiContract({
    summary: "One record's DCAT-AP dataset with its distributions (404 unless everyone may see it); Turtle or JSON-LD",
    query: formatQuery,
    responses: { 200: rdfDocument },
  })
  @ApiProduces(TURTLE, JSON_LD)
  @Public()
  @Get('datasets/:id')
  async dataset(@Param('id') id: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    await send(req, res, () => this.dcat.dataset(id));
  }

  @ApiContract({
    summary: "A public record's schema.org Dataset (JSON-LD), as its page carries it for search engines (404 unless everyone may see it)",
    responses: { 200: schemaOrgDatasetSchema },
  })
  @ApiProduces(JSON_LD)
  @Public()
  @Get('datasets/:id/schema-org')
  async schemaOrg(@Param('id') id: string, @Res() res: Response): Promise<void> {
    res.type('application/ld+json; charset=utf-8').send(JSON.stringify(await this.dcat.schemaOrg(id)));
  }

  @ApiContract({
    summary: "A distribution's dcat:downloadURL: 302 to a signed link valid 5 minutes while anonymous visitors may download it (Open access)",
    responses: { 302: null },
  })
  @Public()
  @Get('datasets/:id/distributions/:fileId/download')
  async download(@Param('id') id: string, @Param('fileId') fileId: string, @Res() res: Response): Promise<void> {
    const { url } = await this.downloads.downloadLink(id, null, fileId);
    res.redirect(302, url);
  }
}
