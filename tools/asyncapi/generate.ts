import path from 'node:path';
import { z } from 'zod';
import { stringify } from 'yaml';
import { allEventContracts, EventContract, eventEnvelopeSchema, Topic, TOPIC_USES } from '@dc/contracts';

/**
 * Builds the AsyncAPI 3.0 document of the Kafka topics from the registered event contracts,
 * so the published description can never differ from what services validate.
 */

export const ASYNCAPI_PATH = path.resolve(__dirname, '../../docs/asyncapi.yaml');
export const REGENERATE_COMMAND = 'UPDATE_ASYNCAPI=1 npx jest tools/asyncapi (or: node tools/asyncapi/cli.cjs)';

/** The version of the event API as a whole; each event carries its own version as well. */
const EVENT_API_VERSION = '1.0.0';

type JsonSchema = Record<string, unknown>;
type Ref = { $ref: string };

export interface AsyncApiDocument {
  asyncapi: '3.0.0';
  info: { title: string; version: string; description: string };
  defaultContentType: string;
  servers: Record<string, { host: string; protocol: string; description: string; variables?: Record<string, { description: string; default: string }> }>;
  channels: Record<string, { address: string; title: string; description: string; messages: Record<string, Ref> }>;
  operations: Record<string, { action: 'send' | 'receive'; channel: Ref; summary: string; messages: Ref[] }>;
  components: { messages: Record<string, JsonSchema>; schemas: Record<string, JsonSchema> };
}

/** `dc.user` -> `user`: the channel id used in references. */
export function channelId(topic: Topic): string {
  return topic.replace(/^dc\./, '');
}

/** `user.registered` v1 -> `user.registered.v1`: the message and schema id. */
export function messageId(contract: Pick<EventContract, 'type' | 'version'>): string {
  return `${contract.type}.v${contract.version}`;
}

/** zod 4 emits draft-07 here, which the AsyncAPI schema format (a superset of it) accepts. */
function jsonSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { target: 'draft-7' }) as JsonSchema;
  return rest;
}

function envelopeSchema(contract: EventContract): JsonSchema {
  const envelope = jsonSchema(eventEnvelopeSchema);
  const properties = envelope.properties as Record<string, JsonSchema>;
  return {
    ...envelope,
    description: `Envelope of ${contract.type} v${contract.version}.`,
    properties: {
      ...properties,
      id: { ...properties.id, description: 'Unique event id; consumers deduplicate on it.' },
      type: { type: 'string', const: contract.type },
      version: { type: 'integer', const: contract.version },
      occurredAt: { ...properties.occurredAt, description: 'When the change happened (ISO 8601).' },
      key: { ...properties.key, description: 'Id of the aggregate the event is about; also the Kafka message key.' },
      payload: jsonSchema(contract.payload),
      correlationId: { ...properties.correlationId, description: 'Follows one call through the services.' },
    },
  };
}

function byTopicTypeVersion(a: EventContract, b: EventContract): number {
  return a.topic.localeCompare(b.topic) || a.type.localeCompare(b.type) || a.version - b.version;
}

export function generateAsyncApi(contracts: EventContract[] = allEventContracts()): AsyncApiDocument {
  const sorted = [...contracts].sort(byTopicTypeVersion);
  const doc: AsyncApiDocument = {
    asyncapi: '3.0.0',
    info: {
      title: 'Data catalogue events',
      version: EVENT_API_VERSION,
      description:
        'Events the data catalogue services publish to Kafka, one topic per aggregate. Every Kafka message value is a JSON ' +
        'envelope {id, type, version, occurredAt, key, payload, correlationId?}; the Kafka message key is the envelope key, so ' +
        'the events of one aggregate stay ordered. Delivery is at least once: deduplicate on the envelope id. ' +
        'Generated from libs/contracts by tools/asyncapi; do not edit by hand.',
    },
    defaultContentType: 'application/json',
    servers: {
      compose: { host: 'kafka:9092', protocol: 'kafka', description: 'docker-compose.yml, inside the compose network.' },
      'compose-host': { host: 'localhost:9094', protocol: 'kafka', description: 'docker-compose.yml, from the host machine.' },
      kubernetes: {
        host: '{broker}',
        protocol: 'kafka',
        description: 'The managed cluster a Kubernetes deployment names in KAFKA_BROKERS (k8s/ ConfigMap).',
        variables: { broker: { description: 'One bootstrap broker, host:port.', default: 'kafka.data-catalogue-infra.svc:9092' } },
      },
    },
    channels: {},
    operations: {},
    components: { messages: {}, schemas: {} },
  };

  for (const topic of Object.values(Topic).sort()) {
    const id = channelId(topic);
    const own = sorted.filter((contract) => contract.topic === topic);
    doc.channels[id] = {
      address: topic,
      title: `${id} events`,
      description: `Topic ${topic}: events about the ${id} aggregate. What an integration can do with them: ${TOPIC_USES[topic]}.`,
      messages: Object.fromEntries(own.map((contract) => [messageId(contract), { $ref: `#/components/messages/${messageId(contract)}` }])),
    };
    doc.operations[`publish-${id}`] = {
      action: 'send',
      channel: { $ref: `#/channels/${id}` },
      summary: `The services publish ${id} events to ${topic}.`,
      messages: own.map((contract) => ({ $ref: `#/channels/${id}/messages/${messageId(contract)}` })),
    };
  }

  for (const contract of sorted) {
    const id = messageId(contract);
    doc.components.schemas[id] = envelopeSchema(contract);
    doc.components.messages[id] = {
      name: contract.type,
      title: `${contract.type} v${contract.version}`,
      summary: contract.summary,
      contentType: 'application/json',
      payload: { $ref: `#/components/schemas/${id}` },
      bindings: { kafka: { key: { type: 'string', description: 'The envelope key.' }, bindingVersion: '0.5.0' } },
    };
  }
  return doc;
}

export function renderAsyncApi(doc: AsyncApiDocument = generateAsyncApi()): string {
  const header = `# Generated from the event contracts in libs/contracts. Do not edit by hand.\n# Regenerate: ${REGENERATE_COMMAND}\n`;
  return header + stringify(doc, { lineWidth: 0, aliasDuplicateObjects: false });
}
