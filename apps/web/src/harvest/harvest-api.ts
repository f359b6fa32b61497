import { apiRequest } from '../api/client';

/** POST /api/harvests/'s answer: the HARVEST job that imports the catalogue in the background. */
export interface HarvestStarted {
  job_id: string;
  source: string;
  datasets: number;
  detail: string;
}

/** What a finished HARVEST job made of the datasets (the job's content.harvest). */
export interface HarvestOutcome {
  total: number;
  created: number;
  updated: number;
  failed: number;
  failures: Array<{ dataset: string; reason: string }>;
}

/** The import takes as long as fetching and reading the catalogue (the server allows 30 s to fetch it). */
const HARVEST_TIMEOUT_MS = 60_000;

export const harvestApi = {
  /** Imports the catalogue at a URL (the server fetches it). */
  fromUrl: (url: string) => apiRequest<HarvestStarted>('/api/harvests/', { method: 'POST', body: { url }, timeoutMs: HARVEST_TIMEOUT_MS }),
  /** Imports an uploaded catalogue file (Turtle or JSON-LD). */
  fromFile: (file: File) => {
    const body = new FormData();
    body.append('file', file, file.name);
    return apiRequest<HarvestStarted>('/api/harvests/', { method: 'POST', body, timeoutMs: HARVEST_TIMEOUT_MS });
  },
};

/** A job of the Jobs page read as a HARVEST job: its source and outcome, or null for other kinds. */
export function harvestOf(job: { type: string; content?: unknown }): { source: string; outcome: HarvestOutcome | null } | null {
  if (job.type !== 'HARVEST') return null;
  const content = (job.content ?? {}) as { source?: string; harvest?: HarvestOutcome | null };
  return { source: content.source ?? '', outcome: content.harvest ?? null };
}
