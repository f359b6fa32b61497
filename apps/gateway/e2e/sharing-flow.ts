import { eventually } from '@dc/testing';
import type { DistributedProduct } from './distributed-product';
import { activateAndLogin, callApi, register } from './flows';

const PASSWORD = 'river-gauges-at-dawn';

/**
 * The sharing story through the gateway: an owner uploads a CSV (the extraction fills in its
 * statistics) and shows it to everyone on request; a requester asks, the owner approves, and the
 * requester downloads the very bytes. Each step is what the screens do.
 */
export async function requestAndDownload(product: DistributedProduct): Promise<void> {
  const { gatewayUrl, mailDir } = product;
  const signUp = async (username: string) => {
    expect((await register(gatewayUrl, username, PASSWORD)).status).toBe(201);
    const token = await eventually(() => activateAndLogin(gatewayUrl, mailDir, username, PASSWORD), 30_000);
    return { authorization: `JWT ${token}` };
  };
  const owner = await signUp('owen');
  const requester = await signUp('rita');
  const call = (auth: Record<string, string>, method: string, url: string, body?: object) => callApi(gatewayUrl, auth, method, url, body);

  const csv = ['river,flow_m3s', ...Array.from({ length: 200 }, (_, i) => `river-${i},${(i * 13) % 97}`)].join('\n');
  const form = new FormData();
  form.append('file', new Blob([csv], { type: 'text/csv' }), 'river-flows.csv');
  const created = await fetch(`${gatewayUrl}/api/records/`, { method: 'POST', headers: owner, body: form });
  expect(created.status).toBe(201);
  const { id } = await created.json();
  expect(await call(owner, 'PUT', `/api/records/${id}/`, { visibility: 'EV', access: 'RE' })).toMatchObject({ status: 200 });

  // The extraction (on the catalogue's side) computed the statistics of the flow column.
  const stats = await eventually(async () => {
    const { FILES } = (await call(owner, 'GET', `/api/records/${id}/`)).body;
    const { HEADERS, STATS } = FILES[0].META.FILE;
    expect(HEADERS).toEqual(['river', 'flow_m3s']);
    return STATS['1'];
  }, 60_000);
  expect(stats).toMatchObject({ MIN: 0, MAX: 96 });

  // The requests service learns of the record from the catalogue's events.
  const request = await eventually(async () => {
    const opened = await call(requester, 'POST', '/api/requests/', { record: id, status: 'new' });
    expect(opened.status).toBe(201);
    return opened.body.id as string;
  }, 60_000);
  expect(await call(requester, 'PUT', `/api/requests/${request}/`, { status: 'sent', purpose: 'Flood study' })).toMatchObject({ status: 200 });
  expect((await call(requester, 'GET', `/api/records/${id}/download/`)).status).toBe(403);
  expect(await call(owner, 'PUT', `/api/requests/${request}/`, { status: 'review' })).toMatchObject({ status: 200 });
  expect(await call(owner, 'PUT', `/api/requests/${request}/`, { status: 'approved' })).toMatchObject({ status: 200 });

  // The grant reaches the catalogue as an event; then the requester's link serves the file.
  const link = await eventually(async () => {
    const answer = await call(requester, 'GET', `/api/records/${id}/download/`);
    expect(answer.status).toBe(200);
    return answer.body.url as string;
  }, 60_000);
  const file = await fetch(new URL(link, gatewayUrl));
  expect(file.status).toBe(200);
  expect(await file.text()).toBe(csv);
}
