import { randomBytes } from 'node:crypto';
import { describeInfra } from '@dc/testing';
import { ElasticsearchSearchIndex } from './elasticsearch-search-index';
import { searchIndexContract } from './search-index.contract';

const url = process.env.ELASTICSEARCH_URL;

describeInfra(
  'elasticsearch search index',
  url ? true : 'ELASTICSEARCH_URL is not set; Elasticsearch cannot run on this machine',
  () => {
    // A uniquely named index per run, deleted afterwards, so parallel runs never share state.
    const indexName = `dc_test_records_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
    afterAll(async () => {
      const admin = new ElasticsearchSearchIndex({ node: url, index: indexName });
      await admin.deleteIndex();
      await admin.close();
    });

    searchIndexContract('elasticsearch', (limits) => new ElasticsearchSearchIndex({ node: url, index: indexName, refresh: true, ...limits }));
  },
  { allowSkipInCi: true },
);
