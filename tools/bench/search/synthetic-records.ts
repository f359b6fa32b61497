import type { RecordDocument, SearchViewer } from '@dc/search-index';
import { seededRandom } from '../bench-support';

/**
 * Synthetic catalogue records for the search benchmark: reproducible (seeded), with word frequencies
 * that follow Zipf's law as real text does, so a query meets common and rare words as it would in
 * a real catalogue. The most frequent words are real catalogue words (queries read naturally); the
 * long tail is made-up words.
 */
const TOPIC_WORDS = [
  'data',
  'annual',
  'monthly',
  'daily',
  'survey',
  'statistics',
  'county',
  'national',
  'regional',
  'report',
  'river',
  'flow',
  'water',
  'quality',
  'temperature',
  'rainfall',
  'population',
  'census',
  'income',
  'health',
  'hospital',
  'admissions',
  'traffic',
  'collisions',
  'school',
  'enrolment',
  'air',
  'ozone',
  'energy',
  'consumption',
  'level',
  'crime',
  'housing',
  'prices',
  'transit',
  'ridership',
  'forest',
  'fires',
  'wildlife',
  'sightings',
  'budget',
  'spending',
  'vaccination',
  'rates',
  'soil',
  'moisture',
  'wind',
  'speed',
  'snow',
  'depth',
  'station',
  'measurements',
  'hourly',
  'weekly',
  'quarterly',
  'employment',
  'unemployment',
  'labour',
  'force',
  'wages',
  'inflation',
  'consumer',
  'price',
  'index',
  'trade',
  'exports',
  'imports',
  'agriculture',
  'crop',
  'yield',
  'fisheries',
  'catch',
  'emissions',
  'carbon',
  'dioxide',
  'greenhouse',
  'gas',
  'electricity',
  'generation',
  'solar',
  'groundwater',
  'wells',
  'drought',
  'flood',
  'risk',
  'mortality',
  'births',
  'deaths',
  'migration',
  'language',
  'education',
  'graduates',
  'libraries',
  'parks',
  'recreation',
  'tourism',
  'visitors',
  'licences',
  'permits',
  'inspections',
  'restaurant',
  'food',
  'safety',
  'noise',
  'complaints',
  'waste',
  'recycling',
  'roads',
  'bridges',
  'condition',
  'glacier',
  'mass',
  'balance',
  'sea',
  'ice',
  'extent',
  'ocean',
  'salinity',
  'tide',
  'gauge',
];
const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'ta', 'vi', 'so', 'pe', 'da', 'gu', 'ri', 'ba', 'zo', 'fe', 'hu', 'ji', 'wo', 'xa', 'ye'];
const HEADER_WORDS = [
  'id',
  'date',
  'year',
  'month',
  'name',
  'value',
  'code',
  'region',
  'country',
  'station',
  'latitude',
  'longitude',
  'count',
  'total',
  'type',
  'category',
  'status',
  'amount',
  'rate',
  'unit',
  'source',
  'description',
  'start',
  'end',
  'min',
  'max',
  'mean',
  'median',
];

/** The vocabulary in frequency rank order: real topic words first, then made-up words. */
export function vocabulary(size: number): string[] {
  const words = [...TOPIC_WORDS];
  for (let i = 0; words.length < size; i++) {
    let word = '';
    for (let n = i + SYLLABLES.length; n > 0; n = Math.floor(n / SYLLABLES.length)) word += SYLLABLES[n % SYLLABLES.length];
    words.push(word);
  }
  return words;
}

/** Draws ranks 0..n-1 with probability proportional to 1 / (rank + 1)^exponent, from the given random numbers. */
export function zipfRanks(n: number, exponent: number): (random: () => number) => number {
  const cumulative = new Float64Array(n);
  let sum = 0;
  for (let rank = 0; rank < n; rank++) cumulative[rank] = sum += 1 / Math.pow(rank + 1, exponent);
  return (random) => {
    const target = random() * sum;
    let low = 0;
    let high = n - 1;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (cumulative[mid] < target) low = mid + 1;
      else high = mid;
    }
    return low;
  };
}

export const VOCABULARY_SIZE = 20_000;
export const ZIPF_EXPONENT = 1.0;
export const ORGANISATIONS = 50;

export interface SyntheticCatalogue {
  /** The i-th record (0-based); the same i always gives the same record for the same viewer. */
  record(i: number): RecordDocument;
  /** Whether the viewer may see the i-th record: 10% of records (5% their organisation's, 5% EV of others). */
  visibleTo(i: number): boolean;
}

/**
 * Records of 50 organisations. The viewer's organisation owns every 20th record (PR, owned by the
 * viewer), every 20th record from the 10th on is EV, the rest are other organisations' PR records:
 * the viewer may see 10% of them, anonymous visitors 5%.
 */
export function syntheticCatalogue(viewer: SearchViewer, seed = 42): SyntheticCatalogue {
  const words = vocabulary(VOCABULARY_SIZE);
  const rank = zipfRanks(VOCABULARY_SIZE, ZIPF_EXPONENT);
  const base = Date.UTC(2021, 0, 1);
  const visibleTo = (i: number) => i % 20 === 0 || i % 20 === 10;
  return {
    visibleTo,
    record(i: number): RecordDocument {
      // One generator per record: record i does not depend on how many came before it.
      const random = seededRandom(seed * 1_000_003 + i);
      const pick = (count: number) => Array.from({ length: count }, () => words[rank(random)]);
      const own = i % 20 === 0;
      const organisationId = own ? viewer.organisationId : `bench-org-${i % ORGANISATIONS}`;
      // Records arrive over time, two minutes apart with some jitter, as a real catalogue fills up.
      const changed = new Date(base + i * 120_000 + Math.floor(random() * 600_000)).toISOString();
      const header = () => HEADER_WORDS[Math.floor(random() * HEADER_WORDS.length)];
      return {
        id: `bench-${String(i).padStart(8, '0')}`,
        name: `${pick(2 + Math.floor(random() * 3)).join(' ')} ${1990 + Math.floor(random() * 35)}`,
        description: `${pick(10 + Math.floor(random() * 15)).join(' ')}.`,
        headers: [...Array.from({ length: 4 }, header), ...pick(2)],
        words: pick(10),
        ownerId: own ? viewer.userId : `bench-user-${i % 500}`,
        organisationId,
        visibility: i % 20 === 10 ? 'EV' : 'PR',
        sharedWithUserIds: [],
        sharedWithOrganisationIds: [],
        groupIds: [],
        createdAt: changed,
        changedAt: changed,
        card: {
          type: 'text/csv',
          size: 1024 + i,
          origin: 'upload',
          user: own ? 'bench' : `user${i % 500}`,
          organisation: { id: organisationId, name: organisationId },
        },
      };
    },
  };
}
