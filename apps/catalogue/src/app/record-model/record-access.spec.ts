import { permissionsOfGroups } from '@dc/contracts';
import type { AuthUser } from '@dc/platform';
import type { CatalogueRecord } from './record';
import { canView, permissionsFor } from './record-access';

const user = (id: string, organisationId: string, groups: number[]): AuthUser => ({
  id,
  username: id,
  organisationId,
  clientType: 'STANDARD',
  groups,
  permissions: permissionsOfGroups(groups),
  passwordVersion: 1,
});
const owner = user('owner', 'acme', [3]);
const colleague = user('colleague', 'acme', [3]);
const dataAdmin = user('data-admin', 'acme', [2]);
const stranger = user('stranger', 'blue', [1, 2, 3]);
const guest = user('guest', 'cyan', [3]);

const record = (overrides: Partial<CatalogueRecord> = {}) =>
  ({ ownerId: 'owner', organisationId: 'acme', visibility: 'PR', sharedUserIds: [], sharedOrganisationIds: [], access: 'RE', ...overrides }) as CatalogueRecord;

describe('record access rules (ARCHITECTURE section 8)', () => {
  it('PR: the owner and the organisation only; EV: everyone, anonymous included', () => {
    expect([owner, colleague, dataAdmin, stranger, null].map((v) => canView(record(), v))).toEqual([true, true, true, false, false]);
    expect([owner, stranger, null].map((v) => canView(record({ visibility: 'EV' }), v))).toEqual([true, true, true]);
  });

  it('CU: PR plus the listed users and organisations', () => {
    const shared = record({ visibility: 'CU', sharedUserIds: ['guest'], sharedOrganisationIds: [] });
    expect([colleague, guest, stranger, null].map((v) => canView(shared, v))).toEqual([true, true, false, false]);
    expect(canView(record({ visibility: 'CU', sharedOrganisationIds: ['blue'] }), stranger)).toBe(true);
    // The lists mean nothing unless the visibility is CU.
    expect(canView(record({ visibility: 'PR', sharedUserIds: ['guest'] }), guest)).toBe(false);
  });

  it('edit and delete: the owner and Data Admins of the owner organisation only', () => {
    const shared = record({ visibility: 'EV' });
    expect(permissionsFor(shared, owner)).toMatchObject({ isOwner: true, edit: true, delete: true });
    expect(permissionsFor(shared, dataAdmin)).toMatchObject({ isOwner: false, edit: true, delete: true });
    expect(permissionsFor(shared, colleague)).toMatchObject({ edit: false, delete: false });
    // A Data Admin of another organisation has no say.
    expect(permissionsFor(shared, stranger)).toMatchObject({ edit: false, delete: false });
    expect(permissionsFor(shared, null)).toMatchObject({ view: true, edit: false, delete: false, isOwner: false });
  });

  it('download: owner and Data Admins always; anyone who sees it when OP; an approved requestor', () => {
    expect([owner, dataAdmin, colleague, stranger].map((v) => permissionsFor(record(), v).download)).toEqual([true, true, false, false]);
    expect([colleague, stranger, null].map((v) => permissionsFor(record({ access: 'OP', visibility: 'EV' }), v).download)).toEqual([true, true, true]);
    expect(permissionsFor(record({ access: 'OP' }), stranger).download).toBe(false);
    expect(permissionsFor(record({ visibility: 'EV' }), stranger, { approvedRequest: true }).download).toBe(true);
  });
});
