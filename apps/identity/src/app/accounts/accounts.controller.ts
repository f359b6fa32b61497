import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, Req } from '@nestjs/common';
import type { Request } from 'express';
import { ApiContract, AuthUser, CurrentUser, SchemaPipe, messageResponseSchema } from '@dc/platform';
import { AccountsService } from './accounts.service';
import {
  CreateAccountDto,
  createAccountSchema,
  ListAccountsDto,
  listAccountsSchema,
  SetPasswordDto,
  setPasswordSchema,
  UpdateAccountDto,
  updateAccountSchema,
} from './dto/account.dto';
import { accountPageSchema, accountViewSchema } from './account.views';

/** Link to another page of the same list, relative to where the client called. */
function pageLink(req: Request, query: ListAccountsDto) {
  return (page: number) => {
    const url = new URL(req.originalUrl, 'http://placeholder');
    url.searchParams.set('page', String(page));
    url.searchParams.set('page_size', String(query.page_size));
    return `${url.pathname}${url.search}`;
  };
}

@Controller('api/account')
export class AccountsController {
  constructor(private readonly accounts: AccountsService) {}

  /** `{count, next, previous, results: [account]}` of the caller's organisation. */
  @ApiContract({ summary: "The caller's organisation's accounts, paged", query: listAccountsSchema, responses: { 200: accountPageSchema } })
  @Get()
  list(@CurrentUser() caller: AuthUser, @Query(new SchemaPipe(listAccountsSchema)) query: ListAccountsDto, @Req() req: Request) {
    return this.accounts.list(caller, query, pageLink(req, query));
  }

  @ApiContract({ summary: 'Create a sub-account (account.add_userprofile)', body: createAccountSchema, responses: { 201: accountViewSchema } })
  @Post()
  create(@CurrentUser() caller: AuthUser, @Body(new SchemaPipe(createAccountSchema)) dto: CreateAccountDto) {
    return this.accounts.create(caller, dto);
  }

  @ApiContract({ summary: "An account of the caller's organisation", responses: { 200: accountViewSchema } })
  @Get(':id')
  get(@CurrentUser() caller: AuthUser, @Param('id') id: string) {
    return this.accounts.get(caller, id);
  }

  @ApiContract({ summary: 'Change an account (account.change_userprofile)', body: updateAccountSchema, responses: { 200: accountViewSchema } })
  @Put(':id')
  update(@CurrentUser() caller: AuthUser, @Param('id') id: string, @Body(new SchemaPipe(updateAccountSchema)) dto: UpdateAccountDto) {
    return this.accounts.update(caller, id, dto);
  }

  /** The same as PUT (fields sent are changed); the client uses it for `{groups}`. */
  @ApiContract({
    summary: 'Change the fields sent of an account (the client sends `{groups}`)',
    body: updateAccountSchema,
    responses: { 200: accountViewSchema },
  })
  @Patch(':id')
  patch(@CurrentUser() caller: AuthUser, @Param('id') id: string, @Body(new SchemaPipe(updateAccountSchema)) dto: UpdateAccountDto) {
    return this.accounts.update(caller, id, dto);
  }

  @ApiContract({ summary: 'Delete an account', responses: { 204: null } })
  @Delete(':id')
  @HttpCode(204)
  async delete(@CurrentUser() caller: AuthUser, @Param('id') id: string): Promise<void> {
    await this.accounts.delete(caller, id);
  }

  @ApiContract({ summary: "Set an account's password", body: setPasswordSchema, responses: { 200: messageResponseSchema } })
  @Post(':id/set_password')
  @HttpCode(200)
  setPassword(@CurrentUser() caller: AuthUser, @Param('id') id: string, @Body(new SchemaPipe(setPasswordSchema)) dto: SetPasswordDto) {
    return this.accounts.setPassword(caller, id, dto);
  }
}
