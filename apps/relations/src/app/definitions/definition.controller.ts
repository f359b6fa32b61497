import { Controller, Get, Query } from '@nestjs/common';
import { ApiContract, Public, SchemaPipe } from '@dc/platform';
import { DEFINITION_CONTRACT } from './definition.contract';
import { definitionSchema } from './definition.dto';
import { DefinitionService } from './definition.service';

/** GET /api/relations/definition/?word=: the Word Set's definition modal, from WordNet. */
@Controller('api/relations')
export class DefinitionController {
  constructor(private readonly definitions: DefinitionService) {}

  @ApiContract(DEFINITION_CONTRACT)
  @Public()
  @Get('definition')
  definition(@Query(new SchemaPipe(definitionSchema)) q: { word: string }) {
    return this.definitions.define(q.word);
  }
}
