import { topicOf } from '@dc/contracts';

/**
 * Checks a subscription and returns its event types. A second subscription to a group on the same
 * bus must name the same types: members of one group share its events, and a member that would
 * receive events it does not handle would silently drop them for the whole group.
 */
export function checkSubscription(groupId: string, eventTypes: string[], existing: Set<string> | undefined): Set<string> {
  if (!groupId) throw new Error('A consumer group id is required');
  if (eventTypes.length === 0) throw new Error(`group ${groupId}: subscribe to at least one event type`);
  eventTypes.forEach((type) => topicOf(type)); // throws for a type no topic carries
  const types = new Set(eventTypes);
  if (existing && (existing.size !== types.size || [...types].some((type) => !existing.has(type)))) {
    throw new Error(
      `group ${groupId} is already subscribed to [${[...existing].join(', ')}] on this bus; every member of a group must subscribe to the same event types`,
    );
  }
  return types;
}
