import type { z } from 'zod';
import { validationFailed } from './errors.js';

/** Validates input that Fastify could not (multipart fields) with a contract schema. */
export function parseWith<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (!result.success) {
    throw validationFailed(result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })));
  }
  return result.data;
}
