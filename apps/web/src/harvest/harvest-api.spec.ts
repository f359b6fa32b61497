import { describe, expect, it } from '@jest/globals';
import { harvestOf } from './harvest-api';

describe('harvestOf', () => {
  it('reads a HARVEST job of the Jobs page: its source and, once ended, its outcome', () => {
    const outcome = {
      total: 2,
      created: 1,
      updated: 0,
      failed: 1,
      failures: [{ dataset: 'https://x.example/d/2', reason: 'name: This field may not be blank.' }],
    };
    expect(harvestOf({ type: 'HARVEST', content: { source: 'catalog.ttl', harvest: outcome } })).toEqual({ source: 'catalog.ttl', outcome });
    expect(harvestOf({ type: 'HARVEST', content: { source: 'https://x.example/catalog.ttl', harvest: null } })).toEqual({
      source: 'https://x.example/catalog.ttl',
      outcome: null,
    });
  });

  it('leaves merges and links alone', () => {
    expect(harvestOf({ type: 'MERGE', content: { result_record_id: 'r' } })).toBeNull();
    expect(harvestOf({ type: 'LINK' })).toBeNull();
  });
});
