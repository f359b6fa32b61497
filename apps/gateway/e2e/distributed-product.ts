// The distributed product lives in @dc/testing, so the browser suites can run their stories on it too.
export { SERVICES, startDistributedProduct, type DistributedProduct, type ServiceName } from '@dc/testing';
