import { Logger } from '@nestjs/common';
import { EventEnvelope, topicOf, validateEnvelope } from '@dc/contracts';
import { Admin, Consumer, IHeaders, Kafka, KafkaMessage, logCreator, logLevel, Partitioners, Producer, RetryOptions } from 'kafkajs';
import { EventBus, EventBusClosedError, EventHandler, MessagingLogger } from './event-bus';
import { decodeEvent, deliver, DeliveryOptions, describeError, sleep } from './delivery';
import { checkSubscription } from './subscriptions';

export interface KafkaEventBusOptions extends DeliveryOptions {
  brokers: string[];
  clientId: string;
  /** kafkajs' own log level; default WARN. */
  logLevel?: logLevel;
  /** Where kafkajs logs go; default: into `logger`. */
  logCreator?: logCreator;
  logger?: MessagingLogger;
  /** kafkajs client retry policy (connection, metadata, produce). */
  retry?: RetryOptions;
  /** Consumer group session timeout; default 30000 (Kafka brokers refuse less than 6000 by default). */
  sessionTimeoutMs?: number;
  /** Default 3000; must stay well below the session timeout. */
  heartbeatIntervalMs?: number;
  /** Longest a fetch waits on the broker for new messages; default 1000. */
  maxWaitTimeMs?: number;
}

/** Headers beside the JSON value, for tools and integrations that route without parsing it. */
const CORRELATION_HEADER = 'correlationId';

/**
 * The distributed mode's bus. One topic per aggregate (topicOf), the event key as message key (so
 * one aggregate's events share a partition and stay in order), the envelope as JSON value. Each
 * subscribe call is one kafkajs consumer in the consumer group; new groups start from the beginning.
 */
export class KafkaEventBus extends EventBus {
  private readonly kafka: Kafka;
  private readonly logger: MessagingLogger;
  private readonly producer: Producer;
  private readonly consumers: Consumer[] = [];
  private readonly groupTypes = new Map<string, Set<string>>();
  /** Only for readiness checks; made on the first one. */
  private admin?: Admin;
  private starting?: Promise<void>;
  private closing?: Promise<void>;
  private closed = false;

  constructor(private readonly options: KafkaEventBusOptions) {
    super();
    this.logger = options.logger ?? new Logger(KafkaEventBus.name);
    this.kafka = new Kafka({
      brokers: options.brokers,
      clientId: options.clientId,
      logLevel: options.logLevel ?? logLevel.WARN,
      logCreator: options.logCreator ?? kafkaLogCreator(this.logger),
      retry: options.retry ?? { initialRetryTime: 100, retries: 8 },
    });
    // Java's murmur2 partitioner: other Kafka clients put the same key on the same partition.
    this.producer = this.kafka.producer({ allowAutoTopicCreation: true, createPartitioner: Partitioners.DefaultPartitioner });
  }

  start(): Promise<void> {
    if (this.closed) return Promise.reject(new EventBusClosedError());
    this.starting ??= this.producer.connect().catch((error: unknown) => {
      this.starting = undefined; // let a later call try again
      throw error;
    });
    return this.starting;
  }

  async publish(events: EventEnvelope[]): Promise<void> {
    if (this.closed) throw new EventBusClosedError();
    // Validate the whole batch before anything is sent: all or nothing.
    const valid = events.map((event) => validateEnvelope(JSON.parse(JSON.stringify(event))));
    if (valid.length === 0) return;
    await this.start();
    const byTopic = new Map<string, { key: string; value: string; headers: IHeaders }[]>();
    for (const event of valid) {
      const topic = topicOf(event.type);
      const headers: IHeaders = { eventType: event.type, eventId: event.id };
      if (event.correlationId) headers[CORRELATION_HEADER] = event.correlationId;
      byTopic.set(topic, [...(byTopic.get(topic) ?? []), { key: event.key, value: JSON.stringify(event), headers }]);
    }
    const topicMessages = [...byTopic].map(([topic, messages]) => ({ topic, messages }));
    await retryWhileTopicIsNew(() => this.producer.sendBatch({ topicMessages, acks: -1 }), this.logger);
  }

  async subscribe(groupId: string, eventTypes: string[], handler: EventHandler): Promise<void> {
    if (this.closed) throw new EventBusClosedError();
    const types = checkSubscription(groupId, eventTypes, this.groupTypes.get(groupId));
    this.groupTypes.set(groupId, types);
    const topics = [...new Set(eventTypes.map(topicOf))];
    const consumer = this.kafka.consumer({
      groupId,
      allowAutoTopicCreation: true,
      sessionTimeout: this.options.sessionTimeoutMs ?? 30000,
      heartbeatInterval: this.options.heartbeatIntervalMs ?? 3000,
      maxWaitTimeInMs: this.options.maxWaitTimeMs ?? 1000,
    });
    this.consumers.push(consumer);
    consumer.on(consumer.events.CRASH, ({ payload }) => {
      this.logger.error(`group ${groupId}: consumer crashed (${payload.restart ? 'restarting' : 'not restarting'}): ${describeError(payload.error)}`);
    });
    await consumer.connect();
    await retryWhileTopicIsNew(() => consumer.subscribe({ topics, fromBeginning: true }), this.logger);
    // Resolves once the consumer has joined its group.
    await consumer.run({
      eachMessage: async ({ topic, partition, message }) => {
        const event = this.decode(message, `group ${groupId} ${topic}[${partition}]@${message.offset}`);
        if (!event || !types.has(event.type)) return;
        await deliver(event, groupId, handler, this.logger, this.options, () => this.closed);
      },
    });
  }

  /**
   * Asks the cluster to describe itself through a client of its own without retries: a readiness
   * probe wants the answer of now, and reports the failure itself (so that client logs nothing).
   */
  async check(): Promise<void> {
    if (this.closed) throw new EventBusClosedError();
    this.admin ??= new Kafka({
      brokers: this.options.brokers,
      clientId: `${this.options.clientId}-health`,
      logLevel: logLevel.NOTHING,
      retry: { retries: 0 },
    }).admin();
    await this.admin.connect();
    const { brokers } = await this.admin.describeCluster();
    if (brokers.length === 0) throw new Error('the Kafka cluster reports no brokers');
  }

  close(): Promise<void> {
    this.closing ??= this.disconnect();
    return this.closing;
  }

  private async disconnect(): Promise<void> {
    this.closed = true;
    // Consumers first: they commit what they handled and leave their groups cleanly.
    const results = await Promise.allSettled([
      ...this.consumers.map((consumer) => consumer.disconnect()),
      this.producer.disconnect(),
      this.admin?.disconnect(),
    ]);
    for (const result of results) {
      if (result.status === 'rejected') this.logger.warn(`disconnect failed: ${describeError(result.reason)}`);
    }
  }

  private decode(message: KafkaMessage, where: string): EventEnvelope | undefined {
    const event = decodeEvent(message.value?.toString('utf8'), this.logger, where);
    const header = message.headers?.[CORRELATION_HEADER];
    // The header is authoritative for tools that only set headers.
    if (event && !event.correlationId && header !== undefined) event.correlationId = header.toString();
    return event;
  }
}

/**
 * The first produce to, or subscribe on, a topic that does not exist yet can meet "This server
 * does not host this topic-partition" while the broker creates it; that settles within moments.
 */
async function retryWhileTopicIsNew<T>(work: () => Promise<T>, logger: MessagingLogger, attempts = 10): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      const message = describeError(error);
      const transient = /does not host this topic-partition|leader is not available|There is no leader/i.test(message);
      if (!transient || attempt >= attempts) throw error;
      logger.warn(`kafka: ${message}; retrying (${attempt}/${attempts})`);
      await sleep(100 * attempt);
    }
  }
}

/** Sends kafkajs' logs through the service's logger (pino via Nest's logger in the apps). */
export function kafkaLogCreator(logger: MessagingLogger): logCreator {
  return () =>
    ({ namespace, level, log }) => {
      const { message, timestamp: _timestamp, logger: _name, ...extra } = log;
      const line = `kafkajs ${namespace}: ${message}${Object.keys(extra).length ? ` ${JSON.stringify(extra)}` : ''}`;
      if (level === logLevel.ERROR) logger.error(line);
      else if (level === logLevel.WARN) logger.warn(line);
      else logger.debug(line);
    };
}
