// Seeded CSVs for the relations benchmark: two large tables of people that share 70 % of their
// persons (the same id, names, birth year and postcode; a few surnames with a typo on the right),
// and eight smaller tables that share some of their columns, for a merge scan over ten records.
import { createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { seededRandom } from '../bench-support';

/** Changes whenever this file would write other data, so older files are written again. */
export const PEOPLE_DATA_VERSION = 'people-v1';

const FIRST = [
  'James',
  'Mary',
  'John',
  'Patricia',
  'Robert',
  'Jennifer',
  'Michael',
  'Linda',
  'William',
  'Elizabeth',
  'David',
  'Barbara',
  'Richard',
  'Susan',
  'Joseph',
  'Jessica',
  'Thomas',
  'Sarah',
  'Charles',
  'Karen',
  'Amelie',
  'Noah',
  'Olivia',
  'Liam',
  'Emma',
  'Lucas',
  'Mia',
  'Leon',
  'Hannah',
  'Felix',
  'Sofia',
  'Mateo',
  'Aisha',
  'Omar',
  'Yuki',
  'Hiro',
  'Priya',
  'Arjun',
  'Chen',
  'Mei',
  'Lars',
  'Ingrid',
  'Pierre',
  'Chloe',
  'Diego',
  'Lucia',
  'Kwame',
  'Ama',
  'Ivan',
  'Olga',
  'Nora',
  'Erik',
  'Zoe',
  'Adam',
  'Eva',
  'Samuel',
  'Leah',
  'Daniel',
  'Anna',
  'Jonas',
];
const SYLLABLES = [
  'son',
  'ber',
  'man',
  'ton',
  'ley',
  'ford',
  'well',
  'ing',
  'wood',
  'field',
  'stein',
  'ova',
  'ez',
  'ski',
  'sen',
  'ham',
  'ward',
  'lin',
  'dorf',
  'ari',
];
const ROOTS = [
  'Smith',
  'Brown',
  'Garcia',
  'Miller',
  'Davis',
  'Martin',
  'Lee',
  'Clark',
  'Lewis',
  'Walker',
  'Young',
  'King',
  'Wright',
  'Scott',
  'Green',
  'Adams',
  'Baker',
  'Hall',
  'Rivera',
  'Campbell',
];
const REGIONS = ['North', 'South', 'East', 'West', 'Central', 'Coast', 'Highlands', 'Valley', 'Lakes', 'Plains'];

export interface PeopleFiles {
  /** The two large tables (person_id, first_name, last_name, birth_year, postcode, and income / visits). */
  left: string;
  right: string;
  /** Eight smaller tables sharing some of their columns with the large ones. */
  others: string[];
  rows: number;
  /** Persons of the left table found again on the right. */
  shared: number;
}

async function writeCsv(file: string, header: string, rows: number, row: (i: number) => string): Promise<void> {
  const out = createWriteStream(file);
  const write = (text: string) => new Promise<void>((resolve) => (out.write(text) ? resolve() : out.once('drain', resolve)));
  await write(`${header}\n`);
  for (let i = 0; i < rows; i += 5000) {
    let batch = '';
    for (let k = i; k < Math.min(rows, i + 5000); k++) batch += `${row(k)}\n`;
    await write(batch);
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
}

/** Writes the ten files into `dir` (once per size and version) and says where they are. */
export async function peopleFiles(dir: string, rows: number): Promise<PeopleFiles> {
  mkdirSync(dir, { recursive: true });
  const manifest = path.join(dir, 'manifest.json');
  if (existsSync(manifest)) {
    const kept = JSON.parse(readFileSync(manifest, 'utf8')) as PeopleFiles & { version: string };
    if (kept.version === PEOPLE_DATA_VERSION && kept.rows === rows && [kept.left, kept.right, ...kept.others].every(existsSync)) return kept;
  }
  const random = seededRandom(20261125);
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)];
  const surnames = [...new Set(Array.from({ length: 600 }, () => `${pick(ROOTS)}${pick(SYLLABLES)}`))].slice(0, 400);
  const postcode = () => 10000 + Math.floor(random() * 90000);

  // Left: `rows` persons. Right: 70 % of them in another order (3 % of their surnames with a typo), then new persons.
  const person = Array.from({ length: rows }, (_, i) => ({
    id: 10_000_000 + i,
    first: pick(FIRST),
    last: pick(surnames),
    year: 1930 + Math.floor(random() * 76),
    postcode: postcode(),
  }));
  const chosen = person.filter(() => random() < 0.7);
  for (let i = chosen.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [chosen[i], chosen[j]] = [chosen[j], chosen[i]];
  }
  const right = chosen.map((p) => (random() < 0.03 ? { ...p, last: `${p.last.slice(0, -1)}${p.last.at(-1) === 'e' ? 'a' : 'e'}` } : p));
  for (let k = 0; right.length < rows; k++)
    right.push({ id: 20_000_000 + k, first: pick(FIRST), last: pick(surnames), year: 1930 + Math.floor(random() * 76), postcode: postcode() });

  const files: PeopleFiles = { left: path.join(dir, 'people-a.csv'), right: path.join(dir, 'people-b.csv'), others: [], rows, shared: chosen.length };
  await writeCsv(files.left, 'person_id,first_name,last_name,birth_year,postcode,income', rows, (i) => {
    const p = person[i];
    return `${p.id},${p.first},${p.last},${p.year},${p.postcode},${(15000 + random() * 120000).toFixed(2)}`;
  });
  await writeCsv(files.right, 'person_id,first_name,last_name,birth_year,postcode,visits', rows, (i) => {
    const p = right[i];
    return `${p.id},${p.first},${p.last},${p.year},${p.postcode},${Math.floor(random() * 40)}`;
  });

  const other = (name: string) => {
    const file = path.join(dir, name);
    files.others.push(file);
    return file;
  };
  await writeCsv(other('postcodes.csv'), 'postcode,region,residents', 90000, (i) => `${10000 + i},${pick(REGIONS)},${200 + Math.floor(random() * 20000)}`);
  await writeCsv(
    other('first-names.csv'),
    'first_name,gender,popularity',
    FIRST.length,
    (i) => `${FIRST[i]},${pick(['f', 'm', 'x'])},${(random() * 100).toFixed(1)}`,
  );
  await writeCsv(other('surnames.csv'), 'last_name,frequency', surnames.length, (i) => `${surnames[i]},${Math.floor(random() * 50000)}`);
  await writeCsv(
    other('birth-years.csv'),
    'birth_year,generation,cohort_size',
    76,
    (i) => `${1930 + i},${['silent', 'boomer', 'x', 'millennial', 'z'][Math.min(4, Math.floor(i / 16))]},${Math.floor(50000 + random() * 900000)}`,
  );
  const sample = Math.min(rows, 100_000);
  await writeCsv(other('people-sample.csv'), 'person_id,first_name,last_name,postcode', sample, (i) => {
    const p = person[Math.floor((i * rows) / sample)];
    return `${p.id},${p.first},${p.last},${p.postcode}`;
  });
  await writeCsv(
    other('incomes.csv'),
    'person_id,income,tax_rate',
    Math.min(rows, 50_000),
    (i) => `${person[i * 2 < rows ? i * 2 : i].id},${(15000 + random() * 120000).toFixed(2)},${(random() * 0.45).toFixed(3)}`,
  );
  const clinics = Array.from({ length: 500 }, (_, i) => `Clinic ${i + 1}`);
  await writeCsv(
    other('clinic-visits.csv'),
    'person_id,visit_date,clinic',
    Math.min(rows, 200_000),
    () =>
      `${pick(right).id},2025-${String(1 + Math.floor(random() * 12)).padStart(2, '0')}-${String(1 + Math.floor(random() * 28)).padStart(2, '0')},${pick(clinics)}`,
  );
  await writeCsv(other('clinics.csv'), 'clinic,postcode,beds', clinics.length, (i) => `${clinics[i]},${postcode()},${10 + Math.floor(random() * 500)}`);

  writeFileSync(manifest, JSON.stringify({ ...files, version: PEOPLE_DATA_VERSION }));
  return files;
}
