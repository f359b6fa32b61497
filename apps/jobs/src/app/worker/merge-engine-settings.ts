import type { DuckdbMergeSettings } from './duckdb-merge-engine';

/**
 * DuckDB's share of a merge worker: under 1 GB with room for Node; past it the join spills to disk.
 * The jobs container's resources in k8s/ are held to it (tools/deploy/k8s-agreement.spec.ts).
 */
export const MERGE_ENGINE_SETTINGS: DuckdbMergeSettings = { memoryLimit: '512MB', threads: 2 };
