import { ApiError } from '../api/client';
import { type ResponseOf, typedApi } from '../api/typed';
import { JOINING_TIMEOUT_MS, type MergeCandidate } from '../jobs/jobs-api';

/** Spec section 9: relation calls time out after 40 s (joining and link-rows after 60 s: JOINING_TIMEOUT_MS). */
export const RELATION_TIMEOUT_MS = 40_000;
/** Spec section 8. */
export const TIMED_OUT = 'Timed out...';
export const DEFINITION_FAILED = 'Could not load additional information on term...';
export const RANGE_ERROR = 'Unexpected range setting: Maximum cannot be less than minimum';
/** Spec section 9: similar words and stats lists show the first 10 by default. */
export const FIRST_SHOWN = 10;

/** The answers of the relation calls, typed from the OpenAPI document (the server's zod schemas). */
export type SemanticsResult = ResponseOf<'/api/relations/semantics', 'get'>;
export type RecordBrief = SemanticsResult['record1'];
export type StructuresResult = ResponseOf<'/api/relations/structures', 'get'>;
export type StatisticsResult = ResponseOf<'/api/relations/statistics', 'get'>;
export type JoiningResult = ResponseOf<'/api/relations/joining', 'get'>;
export type MatchingHeader = JoiningResult['matching_headers'][number];
export type LinkabilityResult = ResponseOf<'/api/relations/linkability', 'get'>;
/** Linkability without the records' heads, as the Linking Columns table also carries it. */
export type Linkability = Omit<LinkabilityResult, 'record1' | 'record2'>;
export type LinkMatch = LinkabilityResult['rows'][number];
export type MergeScanResult = ResponseOf<'/api/relations/get-merge-relations', 'post'>;
export type { MergeCandidate };
export type DefinitionResult = ResponseOf<'/api/relations/definition', 'get'>;
export type WordSense = DefinitionResult['senses'][number];
export type JoinableWithResult = ResponseOf<'/api/relations/joinable-with', 'get'>;
export type TopRelatedResult = ResponseOf<'/api/relations/top-related', 'get'>;

/** A relation call failed: the text to show (the spec's "Timed out..." on time-outs). */
export function relationErrorText(error: unknown): string {
  if (error instanceof ApiError && error.status === 0 && /too long/.test(error.message)) return TIMED_OUT;
  if (error instanceof DOMException && error.name === 'TimeoutError') return TIMED_OUT;
  return error instanceof ApiError ? error.message : 'An error occured, please try again.';
}

const pair = (record1: string, record2: string) => ({ record1, record2 });

export const relationsApi = {
  semantics: (a: string, b: string, range: { min: number; max: number }, signal?: AbortSignal) =>
    typedApi.get('/api/relations/semantics', { query: { ...pair(a, b), ...range }, timeoutMs: RELATION_TIMEOUT_MS, signal }),
  structures: (a: string, b: string, signal?: AbortSignal) =>
    typedApi.get('/api/relations/structures', { query: pair(a, b), timeoutMs: RELATION_TIMEOUT_MS, signal }),
  statistics: (a: string, b: string, signal?: AbortSignal) =>
    typedApi.get('/api/relations/statistics', { query: pair(a, b), timeoutMs: RELATION_TIMEOUT_MS, signal }),
  joining: (a: string, b: string, signal?: AbortSignal) => typedApi.get('/api/relations/joining', { query: pair(a, b), timeoutMs: JOINING_TIMEOUT_MS, signal }),
  linkability: (a: string, b: string, signal?: AbortSignal) =>
    typedApi.get('/api/relations/linkability', { query: pair(a, b), timeoutMs: JOINING_TIMEOUT_MS, signal }),
  mergeScan: (records: string[]) => typedApi.post('/api/relations/get-merge-relations', { records }, { timeoutMs: JOINING_TIMEOUT_MS }),
  definition: (word: string) => typedApi.get('/api/relations/definition', { query: { word }, timeoutMs: RELATION_TIMEOUT_MS }),
  joinableWith: (record: string) => typedApi.get('/api/relations/joinable-with', { query: { record }, timeoutMs: RELATION_TIMEOUT_MS }),
  topRelated: (record: string) => typedApi.get('/api/relations/top-related', { query: { record }, timeoutMs: RELATION_TIMEOUT_MS }),
};

/** Spec section 9: NRMSD rounded to 6 decimals. */
export const formatNrmsd = (nrmsd: number) => nrmsd.toFixed(6);
