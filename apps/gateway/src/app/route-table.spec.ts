import { isInternalPath } from '@dc/platform';
import { routeFor } from './route-table';

describe('gateway route table', () => {
  it.each([
    ['GET', '/api/records/', 'search'],
    ['GET', '/api/records?query=rain&page=2', 'search'],
    ['GET', '/api/recordsannon/?query=x', 'search'],
    ['POST', '/api/records/', 'catalogue'],
    ['GET', '/api/records/5f0c/', 'catalogue'],
    ['PUT', '/api/records/5f0c', 'catalogue'],
    ['POST', '/api/register/', 'identity'],
    ['POST', '/api-token-auth/', 'identity'],
    ['GET', '/api/account/user-account/', 'identity'],
    ['GET', '/api/organisation-autofill-list', 'identity'],
    ['PUT', '/api/organisation/3/', 'identity'],
    ['GET', '/api/requests/sent_requests', 'requests'],
    ['POST', '/api/request-messages/', 'requests'],
    ['GET', '/api/relations/semantics/?record1=a&record2=b', 'relations'],
    ['POST', '/api/tasks/jobs-list/', 'jobs'],
    ['POST', '/api/connections/test-connection/', 'catalogue'],
    ['GET', '/api/connect-aws/get-buckets/', 'catalogue'],
  ])('%s %s goes to %s', (method, url, service) => {
    expect(routeFor(method, url)).toBe(service);
  });

  it('does not match prefixes that only look alike', () => {
    expect(routeFor('GET', '/api/recordsX')).toBeUndefined();
    expect(routeFor('GET', '/api/unknown/')).toBeUndefined();
    expect(routeFor('GET', '/api/registered')).toBeUndefined();
  });

  it('routes nothing under /internal, and the gateway process refuses every spelling of it', () => {
    for (const url of [
      '/internal/token-status',
      '/internal',
      '/INTERNAL/token-status/',
      '//internal/x',
      '/api/../internal/token-status',
      '/api/account/../../internal/token-status',
      '/%69nternal/token-status',
      '/internal;x',
    ]) {
      expect({ url, internal: isInternalPath(url) }).toEqual({ url, internal: true });
    }
    expect(routeFor('GET', '/internal/token-status')).toBeUndefined();
    for (const url of ['/api/records/', '/internals', '/api/internal/', '/health/live'])
      expect({ url, internal: isInternalPath(url) }).toEqual({ url, internal: false });
  });
});
