import { HttpException } from '@nestjs/common';

/** The status and body a refusal answers with (what the client reads), or a failed test when the call went through. */
export async function refusal(call: Promise<unknown>): Promise<{ status: number; body: unknown }> {
  try {
    await call;
  } catch (error) {
    if (error instanceof HttpException) return { status: error.getStatus(), body: error.getResponse() };
    throw error;
  }
  throw new Error('expected the call to be refused');
}
