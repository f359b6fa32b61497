import { Injectable } from '@nestjs/common';
import { notFound } from '@dc/platform';
import type { Answer } from '../compare/responses';
import { Lexicon } from '../wordnet/lexicon';
import type { definitionResponseSchema } from './definition.dto';

/** The Word Set's definition modal: every sense of a word in WordNet. */
@Injectable()
export class DefinitionService {
  constructor(private readonly lexicon: Lexicon) {}

  /** The word's senses, most frequent first; 404 when WordNet has none. */
  define(word: string): Answer<typeof definitionResponseSchema> {
    const senses = this.lexicon.senses(word);
    if (senses.length === 0) throw notFound(`No definition of "${word}" was found.`);
    return { word, senses };
  }
}
