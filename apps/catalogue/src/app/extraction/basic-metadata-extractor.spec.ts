import { DATASETS } from '../../testing/catalogue-test-app';
import { BasicMetadataExtractor } from './basic-metadata-extractor';
import { describeMetadataExtractorContract } from './metadata-extractor.contract';

describeMetadataExtractorContract('BasicMetadataExtractor', () => new BasicMetadataExtractor(), DATASETS);
