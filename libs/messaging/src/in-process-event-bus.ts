import { Logger } from '@nestjs/common';
import { EventEnvelope, validateEnvelope } from '@dc/contracts';
import { EventBus, EventBusClosedError, EventHandler, MessagingLogger } from './event-bus';
import { decodeEvent, deliver, DeliveryOptions } from './delivery';
import { checkSubscription } from './subscriptions';

export interface InProcessEventBusOptions extends DeliveryOptions {
  /**
   * How many published events are kept so that a group subscribing later still receives them
   * (Kafka's retention, in memory). Default 10000.
   */
  retention?: number;
  logger?: MessagingLogger;
}

interface Member {
  handler: EventHandler;
  queue: string[];
  /** The member's drain loop while it runs. */
  active?: Promise<void>;
}

interface Group {
  id: string;
  types: Set<string>;
  members: Member[];
  /** Absolute offset of the next log entry this group has not dispatched yet. */
  next: number;
}

/**
 * The embedded mode's bus: one Node process, no broker. It behaves like a Kafka topic with
 * consumer groups: a log of serialized events, an offset per group, members of a group sharing
 * events by key (so one key's events stay in order), delivery always on a later tick.
 * Events still queued in memory are lost if the process dies; close() delivers them first.
 */
export class InProcessEventBus extends EventBus {
  private readonly logger: MessagingLogger;
  private readonly retention: number;
  /** Serialized envelopes, so no handler can change what another one sees. */
  private log: string[] = [];
  private logStart = 0;
  private readonly groups = new Map<string, Group>();
  private dispatchScheduled = false;
  private closed = false;
  private closing?: Promise<void>;

  constructor(private readonly options: InProcessEventBusOptions = {}) {
    super();
    this.logger = options.logger ?? new Logger(InProcessEventBus.name);
    this.retention = options.retention ?? 10000;
  }

  async start(): Promise<void> {
    if (this.closed) throw new EventBusClosedError();
  }

  async publish(events: EventEnvelope[]): Promise<void> {
    if (this.closed) throw new EventBusClosedError();
    // Validate the whole batch before anything is appended: all or nothing.
    const serialized = events.map((event) => JSON.stringify(validateEnvelope(JSON.parse(JSON.stringify(event)))));
    this.log.push(...serialized);
    this.trimLog();
    this.scheduleDispatch();
  }

  async subscribe(groupId: string, eventTypes: string[], handler: EventHandler): Promise<void> {
    if (this.closed) throw new EventBusClosedError();
    const types = checkSubscription(groupId, eventTypes, this.groups.get(groupId)?.types);
    const group = this.groups.get(groupId) ?? { id: groupId, types, members: [], next: this.logStart };
    group.members.push({ handler, queue: [] });
    this.groups.set(groupId, group);
    this.scheduleDispatch();
  }

  close(): Promise<void> {
    this.closing ??= this.drainAll();
    return this.closing;
  }

  private async drainAll(): Promise<void> {
    this.closed = true;
    // Deliver what was already published: a clean shutdown loses nothing.
    this.dispatch();
    for (;;) {
      const active = [...this.groups.values()].flatMap((group) => group.members.map((member) => member.active)).filter((p) => p !== undefined);
      if (active.length === 0) return;
      await Promise.all(active);
    }
  }

  private trimLog(): void {
    const excess = this.log.length - this.retention;
    if (excess <= 0) return;
    this.log = this.log.slice(excess);
    this.logStart += excess;
  }

  private scheduleDispatch(): void {
    if (this.dispatchScheduled) return;
    this.dispatchScheduled = true;
    setImmediate(() => {
      this.dispatchScheduled = false;
      this.dispatch();
    });
  }

  /** Moves new log entries into member queues and makes sure every member with work is draining. */
  private dispatch(): void {
    const end = this.logStart + this.log.length;
    for (const group of this.groups.values()) {
      if (group.next < this.logStart) {
        this.logger.warn(`group ${group.id}: ${this.logStart - group.next} events passed the retention of ${this.retention} before delivery`);
        group.next = this.logStart;
      }
      for (; group.next < end; group.next++) {
        const raw = this.log[group.next - this.logStart];
        const { type, key } = JSON.parse(raw) as EventEnvelope;
        if (!group.types.has(type)) continue;
        group.members[memberIndex(key, group.members.length)].queue.push(raw);
      }
      for (const member of group.members) {
        if (member.queue.length > 0 && !member.active) member.active = this.drain(group, member);
      }
    }
  }

  private async drain(group: Group, member: Member): Promise<void> {
    // Always start on a later tick than publish.
    await new Promise<void>((resolve) => setImmediate(resolve));
    try {
      for (let raw = member.queue.shift(); raw !== undefined; raw = member.queue.shift()) {
        const event = decodeEvent(raw, this.logger, `group ${group.id}`);
        if (event) await deliver(event, group.id, member.handler, this.logger, this.options);
      }
    } finally {
      member.active = undefined;
    }
  }
}

/** Same key, same member: keeps one key's events in order inside a shared group. */
function memberIndex(key: string, members: number): number {
  let hash = 0;
  for (let i = 0; i < key.length; i++) hash = (Math.imul(hash, 31) + key.charCodeAt(i)) | 0;
  return Math.abs(hash) % members;
}
