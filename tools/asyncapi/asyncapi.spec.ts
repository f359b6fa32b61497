import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import { allEventContracts, createEvent, OrganisationUpdated, Topic } from '@dc/contracts';
import { ASYNCAPI_PATH, AsyncApiDocument, channelId, generateAsyncApi, messageId, REGENERATE_COMMAND, renderAsyncApi } from './generate';
import { OPERATIONS_PATH, renderTopicTable, withTopicTable } from './topics-table';

// UPDATE_ASYNCAPI=1 npx jest tools/asyncapi  rewrites docs/asyncapi.yaml and docs/operations.md's topic table from the contracts.
if (process.env.UPDATE_ASYNCAPI === '1') {
  writeFileSync(ASYNCAPI_PATH, renderAsyncApi());
  writeFileSync(OPERATIONS_PATH, withTopicTable(readFileSync(OPERATIONS_PATH, 'utf8')));
}

const KEY = /^[a-zA-Z0-9.\-_]+$/;

/** Resolves a local JSON pointer reference (`#/a/b~1c`) inside the document. */
function resolve(doc: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) throw new Error(`Only local references are used, got ${ref}`);
  return ref
    .slice(2)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((node, part) => (node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined), doc);
}

function allRefs(node: unknown, found: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((item) => allRefs(item, found));
  else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') found.push(value);
      else allRefs(value, found);
    }
  }
  return found;
}

describe('AsyncAPI document (docs/asyncapi.yaml)', () => {
  const generated = generateAsyncApi();

  it('is checked in and matches the event contracts', () => {
    const hint = `docs/asyncapi.yaml is out of date with libs/contracts. Regenerate it: ${REGENERATE_COMMAND}`;
    if (!existsSync(ASYNCAPI_PATH)) throw new Error(hint);
    const checkedIn = readFileSync(ASYNCAPI_PATH, 'utf8').split('\n');
    const fresh = renderAsyncApi(generated).split('\n');
    const line = fresh.findIndex((text, index) => text !== checkedIn[index]);
    if (line >= 0 || checkedIn.length !== fresh.length) {
      const at = line >= 0 ? line : Math.min(fresh.length, checkedIn.length);
      throw new Error(
        `${hint}\nFirst difference at line ${at + 1}:\n  checked in: ${checkedIn[at] ?? '<end of file>'}\n  generated:  ${fresh[at] ?? '<end of file>'}`,
      );
    }
  });

  it('has the required AsyncAPI 3.0 top-level fields', () => {
    const doc: AsyncApiDocument = parse(readFileSync(ASYNCAPI_PATH, 'utf8'));
    expect(doc.asyncapi).toBe('3.0.0');
    expect(doc.info.title).toEqual(expect.any(String));
    expect(doc.info.version).toMatch(/^\d+\.\d+\.\d+$/);
    for (const [name, server] of Object.entries(doc.servers)) {
      expect(name).toMatch(KEY);
      expect(server.protocol).toBe('kafka');
      // Every {variable} in a host must be declared.
      for (const [, variable] of server.host.matchAll(/\{([^}]+)\}/g)) expect(server.variables?.[variable]).toBeDefined();
    }
    for (const section of [doc.channels, doc.operations, doc.components.messages, doc.components.schemas]) {
      for (const key of Object.keys(section)) expect(key).toMatch(KEY);
    }
  });

  it('resolves every reference, and operations only name messages of their own channel', () => {
    const doc: AsyncApiDocument = parse(readFileSync(ASYNCAPI_PATH, 'utf8'));
    const unresolved = allRefs(doc).filter((ref) => resolve(doc, ref) === undefined);
    expect(unresolved).toEqual([]);
    for (const [name, operation] of Object.entries(doc.operations)) {
      expect({ name, action: operation.action }).toEqual({ name, action: expect.stringMatching(/^(send|receive)$/) });
      expect(operation.channel.$ref).toMatch(/^#\/channels\/[^/]+$/);
      for (const message of operation.messages) expect(message.$ref.startsWith(`${operation.channel.$ref}/messages/`)).toBe(true);
    }
    for (const channel of Object.values(doc.channels)) {
      for (const message of Object.values(channel.messages)) expect(message.$ref).toMatch(/^#\/components\/messages\//);
    }
  });

  it('has one channel per topic and describes every registered event contract', () => {
    const doc: AsyncApiDocument = parse(readFileSync(ASYNCAPI_PATH, 'utf8'));
    expect(
      Object.values(doc.channels)
        .map((channel) => channel.address)
        .sort(),
    ).toEqual(Object.values(Topic).sort());
    const contracts = allEventContracts();
    expect(contracts.length).toBeGreaterThan(0);
    for (const contract of contracts) {
      const id = messageId(contract);
      const channel = doc.channels[channelId(contract.topic)];
      expect({ id, address: channel.address, inChannel: id in channel.messages }).toEqual({ id, address: contract.topic, inChannel: true });
      expect(doc.components.messages[id]).toMatchObject({ name: contract.type, summary: contract.summary });
      expect(doc.operations[`publish-${channelId(contract.topic)}`].messages).toContainEqual({
        $ref: `#/channels/${channelId(contract.topic)}/messages/${id}`,
      });
    }
    expect(Object.keys(doc.components.messages)).toHaveLength(contracts.length);
  });

  it('gives each message a JSON schema that accepts real events and rejects broken ones', () => {
    const ajv = new Ajv({ strict: true, allErrors: true });
    addFormats(ajv);
    const doc: AsyncApiDocument = parse(readFileSync(ASYNCAPI_PATH, 'utf8'));
    for (const [id, schema] of Object.entries(doc.components.schemas)) {
      expect(() => ajv.compile(schema)).not.toThrow();
      expect(id).toMatch(/\.v\d+$/);
    }
    const validate = ajv.compile(doc.components.schemas[messageId(OrganisationUpdated)]);
    const event = JSON.parse(JSON.stringify(createEvent(OrganisationUpdated, 'org-1', { organisationId: 'org-1', name: 'Acme' }, { correlationId: 'c-1' })));
    expect(validate(event) ? [] : validate.errors).toEqual([]);
    expect(validate({ ...event, type: 'user.updated' })).toBe(false);
    expect(validate({ ...event, payload: { name: 'Acme' } })).toBe(false);
    expect(validate({ ...event, id: 'not-a-uuid' })).toBe(false);
  });

  it("writes docs/operations.md's topic table from the same contracts, every topic with the events it carries", () => {
    const checkedIn = readFileSync(OPERATIONS_PATH, 'utf8');
    if (checkedIn !== withTopicTable(checkedIn))
      throw new Error(`docs/operations.md's topic table is out of date with libs/contracts. Regenerate it: ${REGENERATE_COMMAND}`);
    const doc: AsyncApiDocument = parse(readFileSync(ASYNCAPI_PATH, 'utf8'));
    const rows = renderTopicTable().split('\n').slice(2);
    expect(rows).toHaveLength(Object.values(Topic).length);
    for (const channel of Object.values(doc.channels)) {
      const names = Object.keys(channel.messages).map((id) => id.replace(/\.v\d+$/, ''));
      const row = rows.find((text) => text.startsWith(`| \`${channel.address}\` |`));
      expect({ topic: channel.address, events: row?.split(' | ')[1] }).toEqual({
        topic: channel.address,
        events: [...new Set(names)].map((name) => `\`${name}\``).join(', '),
      });
    }
    expect(rows.find((text) => text.includes('`dc.merge`'))).toContain('`merge.completed`');
    expect(() => withTopicTable('no markers here')).toThrow(/markers/);
  });
});
