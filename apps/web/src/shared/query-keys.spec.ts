import { describe, expect, it } from '@jest/globals';
import { accountKeys, identityKeys, jobKeys, recordKeys, relationKeys, sharingKeys, sourceKeys } from './query-keys';

/** Invalidating a prefix reaches a key when the key starts with it (react-query's partial matching). */
const startsWith = (key: readonly unknown[], prefix: readonly unknown[]) => prefix.every((part, i) => key[i] === part);

describe('query keys', () => {
  it('puts every key of a feature under its prefix', () => {
    const features: Array<[readonly unknown[], Array<readonly unknown[]>]> = [
      [accountKeys.all, [accountKeys.session('t')]],
      [identityKeys.all, [identityKeys.organisation(1), identityKeys.accounts, identityKeys.apiKeys]],
      [recordKeys.all, [recordKeys.list(null, {}), recordKeys.detail('r'), recordKeys.visibility('r'), recordKeys.download('r'), recordKeys.accessOptions]],
      [
        sharingKeys.all,
        [sharingKeys.policies, sharingKeys.groupList(), sharingKeys.sent, sharingKeys.request('q'), sharingKeys.messages('q'), sharingKeys.audit('r')],
      ],
      [jobKeys.all, [jobKeys.list(true), jobKeys.content('j')]],
      [relationKeys.all, [relationKeys.joinableWith('r'), relationKeys.definition('w'), relationKeys.compare('joining', 'a', 'b', null)]],
      [sourceKeys.all, [sourceKeys.connections, sourceKeys.tables('c'), sourceKeys.preview('c', 't'), sourceKeys.cloudAccounts]],
    ];
    for (const [prefix, keys] of features) for (const key of keys) expect({ key, under: startsWith(key, prefix) }).toEqual({ key, under: true });
  });

  it('reaches every list with the lists prefix and no record details with it', () => {
    expect(startsWith(recordKeys.list('t', { query: 'co2' }), recordKeys.lists())).toBe(true);
    expect(startsWith(recordKeys.detail('r'), recordKeys.lists())).toBe(false);
    expect(startsWith(sharingKeys.groupList('r'), sharingKeys.groups)).toBe(true);
    expect(startsWith(sharingKeys.received, sharingKeys.requests)).toBe(true);
  });

  it('keeps the connections list apart from a connection tables and previews', () => {
    expect(startsWith(sourceKeys.tables('c'), sourceKeys.connections)).toBe(false);
    expect(startsWith(sourceKeys.preview('c', 't'), sourceKeys.connections)).toBe(false);
  });
});
