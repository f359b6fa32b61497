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

/** A log entry queued for one member; `handled` settles the publish call that is waiting for it. */
interface Delivery {
  raw: string;
  handled?: () => void;
}

interface Member {
  handler: EventHandler;
  queue: Delivery[];
  /** The member's drain loop while it runs. */
  active?: Promise<void>;
}

interface Group {
  id: string;
  types: Set<string>;
  members: Member[];
  /** Absolute offset of the next log entry this group has not queued yet. */
  next: number;
}

/**
 * The embedded mode's bus: one Node process, no broker. It behaves like a Kafka topic with
 * consumer groups: a log of serialized events, an offset per group, members of a group sharing
 * events by key (so one key's events stay in order), delivery always on a later tick.
 *
 * Memory is not durable, so publish resolves only once every group subscribed at that moment has
 * handled the events (or given up on them): the outbox relay marks a row published only then, and
 * a process that dies earlier publishes it again after restart (consumers are idempotent).
 * A group that subscribes later still receives the retained log, but nothing waits for it.
 * (So a handler must not await publish of events its own group handles: it would wait for itself.
 * Handlers publish through their service's outbox.)
 */
export class InProcessEventBus extends EventBus {
  private readonly logger: MessagingLogger;
  private readonly retention: number;
  /** Serialized envelopes, so no handler can change what another one sees. */
  private log: string[] = [];
  private logStart = 0;
  private readonly groups = new Map<string, Group>();
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
    const first = this.logStart + this.log.length;
    this.log.push(...serialized);
    const handled = this.dispatch(first);
    this.trimLog();
    await Promise.all(handled);
  }

  async check(): Promise<void> {
    if (this.closed) throw new EventBusClosedError();
  }

  async subscribe(groupId: string, eventTypes: string[], handler: EventHandler): Promise<void> {
    if (this.closed) throw new EventBusClosedError();
    const types = checkSubscription(groupId, eventTypes, this.groups.get(groupId)?.types);
    const group = this.groups.get(groupId) ?? { id: groupId, types, members: [], next: this.logStart };
    group.members.push({ handler, queue: [] });
    this.groups.set(groupId, group);
    this.dispatch();
  }

  close(): Promise<void> {
    this.closing ??= this.drainAll();
    return this.closing;
  }

  private async drainAll(): Promise<void> {
    this.closed = true;
    // Deliver what was already published: a clean shutdown loses nothing.
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

  /**
   * Queues the log entries each group has not seen yet with its members, and makes sure every
   * member with work is draining. Returns, for the entries from offset `waitFrom` on, one promise
   * per queued delivery, settled once it was handled.
   */
  private dispatch(waitFrom = Infinity): Promise<void>[] {
    const handled: Promise<void>[] = [];
    const end = this.logStart + this.log.length;
    for (const group of this.groups.values()) {
      for (; group.next < end; group.next++) {
        const raw = this.log[group.next - this.logStart];
        const { type, key } = JSON.parse(raw) as EventEnvelope;
        if (!group.types.has(type)) continue;
        const delivery: Delivery = { raw };
        if (group.next >= waitFrom) handled.push(new Promise<void>((resolve) => (delivery.handled = resolve)));
        group.members[memberIndex(key, group.members.length)].queue.push(delivery);
      }
      for (const member of group.members) {
        if (member.queue.length > 0 && !member.active) member.active = this.drain(group, member);
      }
    }
    return handled;
  }

  private async drain(group: Group, member: Member): Promise<void> {
    // Always start on a later tick than publish.
    await new Promise<void>((resolve) => setImmediate(resolve));
    try {
      for (let delivery = member.queue.shift(); delivery !== undefined; delivery = member.queue.shift()) {
        try {
          const event = decodeEvent(delivery.raw, this.logger, `group ${group.id}`);
          if (event) await deliver(event, group.id, member.handler, this.logger, this.options);
        } finally {
          delivery.handled?.();
        }
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
