import { z } from 'zod';
import { REQUIRED } from '../compare/dto';

/** GET definition: the word asked about. */
export const definitionSchema = z.object({
  word: z.string({ error: REQUIRED }).trim().min(1, REQUIRED).max(100, 'Ensure this field has no more than 100 characters.'),
});

export const definitionResponseSchema = z.object({
  word: z.string(),
  senses: z.array(
    z.object({
      pos: z.enum(['noun', 'verb', 'adj', 'adv']),
      synset: z.number().int(),
      lemmas: z.array(z.string()),
      definition: z.string(),
      examples: z.array(z.string()),
      hypernyms: z.array(z.string()).describe('lemmas of its direct hypernyms (broader terms)'),
    }),
  ),
});
