import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiContract, AuthUser, CurrentUser, SchemaPipe, pagedSchema } from '@dc/platform';
import { CloudService } from './cloud.service';
import { type CloudDto, cloudSchema } from './dto/cloud.dto';
import { z } from 'zod';
import { cloudAccountViewSchema } from './cloud-account';

const accountIdSchema = z.object({ accountId: z.string().optional(), id: z.string().optional().describe('the same as accountId') });
const bucketsSchema = z.object({
  buckets: z.array(z.object({ name: z.string(), creation_date: z.string().nullable() })),
  account: cloudAccountViewSchema.nullable(),
});
const objectsSchema = z.object({
  bucket: z.string(),
  objects: z.array(z.object({ name: z.string(), size: z.number(), last_modified: z.string().nullable() })),
});
/** One row per object: the record made, or the error that replaced it. */
const indexedSchema = z.object({
  results: z.array(
    z.object({ id: z.string().nullable(), name: z.string(), bucket: z.string(), size: z.number(), type: z.string(), error: z.string().nullable() }),
  ),
});

/**
 * Spec section 7 "Cloud", all under /api/connect-aws/. The spec's calls are GETs with query
 * parameters; each also answers a POST with a JSON body, which the web client uses so that no
 * secret ends up in a URL (and in proxies' logs).
 */
@Controller('api/connect-aws')
export class CloudController {
  constructor(private readonly cloud: CloudService) {}

  @ApiContract({ summary: "The caller's saved cloud accounts (never the secret)", responses: { 200: pagedSchema(cloudAccountViewSchema) } })
  @Get('get-accounts')
  accounts(@CurrentUser() user: AuthUser) {
    return this.cloud.list(user);
  }

  @ApiContract({ summary: 'Delete a saved cloud account', query: accountIdSchema, responses: { 204: null } })
  @Get('delete-account')
  @HttpCode(204)
  async deleteByQuery(@CurrentUser() user: AuthUser, @Query() query: { accountId?: string; id?: string }): Promise<void> {
    await this.cloud.remove(user, { accountId: query.accountId ?? query.id });
  }

  @ApiContract({ summary: 'Delete a saved cloud account', body: accountIdSchema, responses: { 204: null } })
  @Post('delete-account')
  @HttpCode(204)
  async delete(@CurrentUser() user: AuthUser, @Body() body: { accountId?: string; id?: string }): Promise<void> {
    await this.cloud.remove(user, { accountId: body?.accountId ?? body?.id });
  }

  @ApiContract({ summary: 'The buckets of an account (the POST form keeps the secret out of URLs)', query: cloudSchema, responses: { 200: bucketsSchema } })
  @Get('get-buckets')
  bucketsByQuery(@CurrentUser() user: AuthUser, @Query(new SchemaPipe(cloudSchema)) dto: CloudDto) {
    return this.cloud.buckets(user, dto);
  }

  @ApiContract({ summary: 'The buckets of an account; saveAccount saves it', body: cloudSchema, responses: { 200: bucketsSchema } })
  @Post('get-buckets')
  @HttpCode(200)
  buckets(@CurrentUser() user: AuthUser, @Body(new SchemaPipe(cloudSchema)) dto: CloudDto) {
    return this.cloud.buckets(user, dto);
  }

  @ApiContract({ summary: 'The objects of one bucket', query: cloudSchema, responses: { 200: objectsSchema } })
  @Get('get-bucket-objects')
  objectsByQuery(@CurrentUser() user: AuthUser, @Query(new SchemaPipe(cloudSchema)) dto: CloudDto) {
    return this.cloud.objects(user, dto);
  }

  @ApiContract({ summary: 'The objects of one bucket', body: cloudSchema, responses: { 200: objectsSchema } })
  @Post('get-bucket-objects')
  @HttpCode(200)
  objects(@CurrentUser() user: AuthUser, @Body(new SchemaPipe(cloudSchema)) dto: CloudDto) {
    return this.cloud.objects(user, dto);
  }

  @ApiContract({ summary: 'Index every object of the chosen buckets (at most 100)', query: cloudSchema, responses: { 200: indexedSchema } })
  @Get('index-bucket')
  indexBucketByQuery(@CurrentUser() user: AuthUser, @Query(new SchemaPipe(cloudSchema)) dto: CloudDto) {
    return this.cloud.indexBuckets(user, dto);
  }

  @ApiContract({ summary: 'Index every object of the chosen buckets (at most 100)', body: cloudSchema, responses: { 200: indexedSchema } })
  @Post('index-bucket')
  @HttpCode(200)
  indexBucket(@CurrentUser() user: AuthUser, @Body(new SchemaPipe(cloudSchema)) dto: CloudDto) {
    return this.cloud.indexBuckets(user, dto);
  }

  @ApiContract({ summary: 'Index chosen objects of one bucket', query: cloudSchema, responses: { 200: indexedSchema } })
  @Get('index-object')
  indexObjectByQuery(@CurrentUser() user: AuthUser, @Query(new SchemaPipe(cloudSchema)) dto: CloudDto) {
    return this.cloud.indexObjects(user, dto);
  }

  @ApiContract({ summary: 'Index chosen objects of one bucket', body: cloudSchema, responses: { 200: indexedSchema } })
  @Post('index-object')
  @HttpCode(200)
  indexObject(@CurrentUser() user: AuthUser, @Body(new SchemaPipe(cloudSchema)) dto: CloudDto) {
    return this.cloud.indexObjects(user, dto);
  }
}
