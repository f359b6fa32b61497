import { createEvent, OrganisationUpdated, validateEnvelope, InvalidEventError, topicOf, Topic } from '../index';

describe('event contracts', () => {
  it('builds a valid envelope for a declared event', () => {
    const event = createEvent(OrganisationUpdated, 'org-1', { organisationId: 'org-1', name: 'Acme' }, { correlationId: 'c-1' });
    expect(event).toMatchObject({ type: 'organisation.updated', version: 1, key: 'org-1', correlationId: 'c-1', payload: { name: 'Acme', description: '' } });
    expect(validateEnvelope(JSON.parse(JSON.stringify(event)))).toEqual(event);
  });

  it('rejects a payload that breaks the schema, and unknown event types', () => {
    expect(() => createEvent(OrganisationUpdated, 'org-1', { organisationId: 'org-1' } as never)).toThrow(InvalidEventError);
    expect(() =>
      validateEnvelope({
        id: globalThis.crypto.randomUUID(),
        type: 'organisation.vanished',
        version: 1,
        occurredAt: new Date().toISOString(),
        key: 'k',
        payload: {},
      }),
    ).toThrow('Unknown event');
  });

  it('routes each event type to its aggregate topic', () => {
    expect(topicOf('record.created')).toBe(Topic.Record);
    expect(() => topicOf('nothing.here')).toThrow();
  });
});
