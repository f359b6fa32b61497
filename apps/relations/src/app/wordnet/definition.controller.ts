import { Controller, Get, Query } from '@nestjs/common';
import { ApiContract, DetailError, Public, SchemaPipe } from '@dc/platform';
import { definitionSchema } from '../compare/dto';
import { type Answer, definitionResponseSchema } from '../compare/responses';
import { Lexicon } from './lexicon';

/** GET /api/relations/definition/?word=: the Word Set's definition modal, from WordNet. */
@Controller('api/relations')
export class DefinitionController {
  constructor(private readonly lexicon: Lexicon) {}

  @ApiContract({
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
  })
  @Public()
  @Get('definition')
  definition(@Query(new SchemaPipe(definitionSchema)) q: { word: string }): Answer<typeof definitionResponseSchema> {
    const senses = this.lexicon.senses(q.word);
    if (senses.length === 0) throw new DetailError(`No definition of "${q.word}" was found.`, 404);
    return { word: q.word, senses };
  }
}
