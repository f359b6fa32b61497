import { randomUUID } from 'node:crypto';
import { AuditContent, AuditEntry, canonicalJson, chainEntry, firstBreak, GENESIS_HASH } from './audit-chain';

const content = (action: AuditContent['action'], details: AuditContent['details'] = {}): AuditContent => ({
  id: randomUUID(),
  requestId: 'req-1',
  recordId: 'rec-1',
  actorId: 'user-1',
  action,
  details,
  occurredAt: new Date('2030-01-01T10:00:00.123Z'),
});

function chain(...items: AuditContent[]): AuditEntry[] {
  const entries: AuditEntry[] = [];
  for (const item of items) entries.push(chainEntry(item, entries.at(-1) ?? null));
  return entries;
}

describe('audit chain', () => {
  it('links each entry to the one before it, from the genesis hash', () => {
    const [first, second] = chain(content('sent'), content('approved', { expiresAt: '2030-02-01T00:00:00.000Z' }));
    expect(first).toMatchObject({ seq: 1, prevHash: GENESIS_HASH });
    expect(second).toMatchObject({ seq: 2, prevHash: first.hash });
    expect(second.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(firstBreak([first, second], null)).toBeNull();
  });

  it('hashes details the same whatever the key order (jsonb reorders keys)', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[2,{"y":2,"z":1}]},"b":1}');
    const entry = chainEntry(content('approved', { b: '2', a: '1' }), null);
    expect(firstBreak([{ ...entry, details: { a: '1', b: '2' } }], null)).toBeNull();
  });

  it('names the first changed, removed or inserted entry', () => {
    const entries = chain(content('sent'), content('review'), content('approved'), content('download'));
    expect(firstBreak([entries[0], { ...entries[1], action: 'disapproved' }, ...entries.slice(2)], null)).toMatchObject({
      seq: 2,
      reason: expect.stringContaining('changed'),
    });
    expect(firstBreak([entries[0], { ...entries[1], details: { note: 'added later' } }, ...entries.slice(2)], null)).toMatchObject({ seq: 2 });
    expect(firstBreak([entries[0], entries[2], entries[3]], null)).toMatchObject({ seq: 3, reason: expect.stringContaining('removed or inserted') });
    // Recomputing an edited entry's own hash still breaks the link from the next one.
    const forged = chainEntry({ ...entries[1], action: 'disapproved' }, entries[0]);
    expect(firstBreak([entries[0], forged, entries[2], entries[3]], null)).toMatchObject({ seq: 3, reason: expect.stringContaining('previous hash') });
    // Verification can continue from a checked prefix.
    expect(firstBreak(entries.slice(2), entries[1])).toBeNull();
  });
});
