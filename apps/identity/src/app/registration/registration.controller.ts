import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { Public, SchemaPipe } from '@dc/platform';
import { RegisterDto, registerSchema } from './dto/register.dto';
import { RegistrationService } from './registration.service';

@Controller('api/register')
export class RegistrationController {
  constructor(private readonly registration: RegistrationService) {}

  @Public()
  @Post()
  @HttpCode(201)
  register(@Body(new SchemaPipe(registerSchema)) dto: RegisterDto) {
    return this.registration.register(dto);
  }
}
