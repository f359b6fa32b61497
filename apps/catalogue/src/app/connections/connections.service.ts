import { Injectable } from '@nestjs/common';
import { createHash, randomUUID } from 'node:crypto';
import { describeAggregatedTable, linkageKeyId } from '@dc/extraction';
import { isUuid, pageOf } from '@dc/contracts';
import { AuthUser, DetailError, notFound, SecretCipher } from '@dc/platform';
import { toRecordsPage } from '@dc/search-index';
import { OutgoingAddressRefusedError } from '@dc/platform';
import { EndpointGuard } from '../network/endpoint-guard';
import { privateColumnsOf } from '../record-model/private-columns';
import { IndexedRecords } from '../record-creation/indexed-records';
import { RecordsService } from '../records/records.service';
import { type Connection, connectionView } from './connection';
import { ConnectionFailedError, failureText, NO_SUCH_TABLE } from './connections.errors';
import { ConnectionsRepository } from './connections.repository';
import type { ConnectionDto, CreateMetadataDto, GetObjectDto } from './dto/connection.dto';
import { CONNECT_TIME_LIMIT_MS, type ConnectionFailure, SqlConnectionError, SqlDatabases, type SqlSession } from './sql-database';

/** The spec's page of connections: page_size is not one of this list's parameters. */
const PAGE_SIZE = 100;
const passwordContext = (id: string) => `connection:${id}`;

/**
 * SQL connections (spec sections 2, 4, 7 "Connections"): each belongs to the user who made it, and
 * nobody else lists, reads, uses or deletes it (404). Every call that touches the database opens
 * one read-only session and closes it. A failure says what failed (ConnectionFailure), except for
 * addresses the operator does not allow: those all get one answer, before any connection is tried.
 */
@Injectable()
export class ConnectionsService {
  constructor(
    private readonly connections: ConnectionsRepository,
    private readonly databases: SqlDatabases,
    private readonly guard: EndpointGuard,
    private readonly cipher: SecretCipher,
    private readonly indexed: IndexedRecords,
    private readonly records: RecordsService,
  ) {}

  /**
   * POST test-connection/: `{pass}`; true only when a session could be opened and the tables
   * listed; else also `reason` (a ConnectionFailure) and `detail`, what failed in words.
   */
  async test(dto: ConnectionDto): Promise<{ pass: true } | { pass: false; reason: ConnectionFailure; detail: string }> {
    try {
      await this.withSession(dto, (session) => session.tables());
      return { pass: true };
    } catch (error) {
      if (error instanceof ConnectionFailedError) return { pass: false, reason: error.reason, detail: error.text };
      throw error;
    }
  }

  /** POST create-connection/: tested first (Connect follows a passed Test, spec section 4), then saved. */
  async create(user: AuthUser, dto: ConnectionDto) {
    await this.withSession(dto, (session) => session.tables());
    const id = randomUUID();
    const connection: Connection = {
      id,
      ownerId: user.id,
      organisationId: user.organisationId,
      name: dto.name,
      sqltype: dto.sqltype,
      host: dto.host,
      port: dto.port,
      username: dto.username,
      sealedPassword: this.cipher.encrypt(dto.password, passwordContext(id)),
      createdAt: new Date(),
    };
    await this.connections.insert(connection);
    return connectionView(connection);
  }

  async list(user: AuthUser, query: { page?: string }, baseUrl: string) {
    const { page, offset } = pageOf({ page: query.page }, { size: PAGE_SIZE, max: PAGE_SIZE });
    const { count, connections } = await this.connections.listOwned(user.id, { offset, limit: PAGE_SIZE });
    return toRecordsPage({ count, results: connections.map(connectionView) }, { baseUrl, page, pageSize: PAGE_SIZE });
  }

  async get(user: AuthUser, id: string) {
    return connectionView(await this.owned(user, id));
  }

  async remove(user: AuthUser, id: string): Promise<void> {
    if (!isUuid(id) || !(await this.connections.deleteOwned(id, user.id))) throw notFound();
  }

  /** GET {id}/list-objects/: the tables (and views) of the database with their columns. */
  async listObjects(user: AuthUser, id: string) {
    const connection = await this.owned(user, id);
    const tables = await this.withSession(this.paramsOf(connection), (session) => session.tables());
    return { count: tables.length, next: null, previous: null, results: tables };
  }

  /** POST get-object/: HEADERS, RAW (rowsPerPage rows as text) and TOTAL_ROWS of a table. */
  async getObject(user: AuthUser, dto: GetObjectDto) {
    const connection = await this.owned(user, dto.connectionId);
    const preview = await this.withSession(this.paramsOf(connection), (session) => session.preview(dto.objectName, dto.rowsPerPage));
    if (!preview) throw new DetailError(NO_SUCH_TABLE, 404);
    return preview;
  }

  /**
   * POST create-metadata/: a record of the table whose META (same shape as an uploaded CSV's) the
   * database computed with aggregate queries; hashed columns are keyed with the owner's linkage
   * key, used for this call only. Nothing of the table is stored but META.
   */
  async createMetadata(user: AuthUser, dto: CreateMetadataDto) {
    const connection = await this.owned(user, dto.connectionId);
    const choices = privateColumnsOf(dto, linkageKeyId);
    const meta = await this.withSession(this.paramsOf(connection), async (session) => {
      const source = await session.tableSource(dto.objectName);
      if (!source) return null;
      const privateColumns = choices
        ? { hash: choices.hash, fuzzy: choices.fuzzy, formats: choices.formats, summary: choices.summary, linkageKey: dto.linkageKey ?? undefined }
        : undefined;
      return describeAggregatedTable({ name: dto.objectName, source }, { extractOption: dto.extractOption, privateColumns });
    });
    if (!meta) throw new DetailError(NO_SUCH_TABLE, 404);
    const source = `${connection.sqltype}://${connection.host}:${connection.port}/${encodeURIComponent(connection.name)}/${encodeURIComponent(dto.objectName)}`;
    const recordId = await this.indexed.create(user, {
      name: dto.recordName ?? dto.objectName,
      description: dto.description,
      source,
      origin: 'database',
      type: `${connection.sqltype} table`,
      extractOption: dto.extractOption,
      privateColumns: choices,
      file: {
        name: dto.objectName,
        contentType: 'application/x-sql-table',
        size: 0,
        checksum: createHash('sha256').update(`${connection.id}\n${dto.objectName}\n${meta.DATE}`).digest('hex'),
        meta: meta as unknown as Record<string, unknown>,
      },
    });
    return this.records.details(recordId, user);
  }

  private async owned(user: AuthUser, id: string): Promise<Connection> {
    const connection = isUuid(id) ? await this.connections.findOwned(id, user.id) : null;
    if (!connection) throw notFound();
    return connection;
  }

  private paramsOf(connection: Connection): ConnectionDto {
    return { ...connection, password: this.cipher.decrypt(connection.sealedPassword, passwordContext(connection.id)) };
  }

  /** One session for one call: the host checked, the session closed whatever happens. */
  private async withSession<T>(params: ConnectionDto, work: (session: SqlSession) => Promise<T>): Promise<T> {
    const failed = (reason: ConnectionFailure) => new ConnectionFailedError(reason, failureText(reason, params));
    let session: SqlSession;
    try {
      session = await this.open(params);
    } catch (error) {
      if (error instanceof OutgoingAddressRefusedError) throw failed(error.why === 'unknown host' ? 'not_found' : 'not_allowed');
      if (error instanceof SqlConnectionError) throw failed(error.reason);
      throw error;
    }
    try {
      return await work(session);
    } catch (error) {
      if (error instanceof SqlConnectionError) throw failed('failed');
      throw error;
    } finally {
      await session.close();
    }
  }

  /**
   * Looks the host up, checks it and logs in, within CONNECT_TIME_LIMIT_MS (the drivers' own
   * connect time-outs are that limit; this deadline also bounds the name lookup and the session's
   * setup). A session that opens after the deadline is closed at once.
   */
  private async open(params: ConnectionDto): Promise<SqlSession> {
    const opening = (async () => {
      const { address } = await this.guard.resolve(params.host);
      return this.databases.open({
        sqltype: params.sqltype,
        address,
        port: params.port,
        database: params.name,
        username: params.username,
        password: params.password,
      });
    })();
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new SqlConnectionError('timeout')), CONNECT_TIME_LIMIT_MS + 500);
    });
    try {
      return await Promise.race([opening, deadline]);
    } catch (error) {
      opening.then(
        (late) => late.close(),
        () => undefined,
      );
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }
}
