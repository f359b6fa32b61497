// What GET definition takes and answers, with the example docs/openapi.json shows.
import type { ApiContractSpec } from '@dc/platform';
import { definitionResponseSchema, definitionSchema } from './definition.dto';

export const DEFINITION_CONTRACT: ApiContractSpec = {
  summary: 'The senses of a word in WordNet (404 when it has none)',
  query: definitionSchema,
  responses: { 200: definitionResponseSchema },
  example: {
    word: 'rainfall',
    senses: [
      {
        pos: 'noun',
        synset: 11501381,
        lemmas: ['rain', 'rainfall'],
        definition: 'water falling in drops from vapor condensed in the atmosphere',
        examples: [],
        hypernyms: ['precipitation', 'downfall'],
      },
    ],
  },
};
