import type { FastifySchema, FastifySchemaCompiler } from 'fastify';
import type { FastifySchemaValidationError } from 'fastify/types/schema.js';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { FORBIDDEN_CHARACTERS_MESSAGE, hasForbiddenCharacters } from '#shared/text';

/** Secrets are hashed and never shown, so any character is allowed in them. */
const SECRET_FIELD = /password/i;
/** Fields typed in a text area, where line breaks are text. */
const MULTILINE_FIELDS = new Set(['reason']);
const MAX_DEPTH = 8;

function forbiddenCharacterIssues(value: unknown, path: (string | number)[], issues: z.core.$ZodRawIssue[]): void {
  if (path.length > MAX_DEPTH) return;
  if (typeof value === 'string') {
    const field = path.at(-1);
    if (typeof field === 'string' && SECRET_FIELD.test(field)) return;
    if (hasForbiddenCharacters(value, { multiline: typeof field === 'string' && MULTILINE_FIELDS.has(field) })) {
      issues.push({ code: 'custom', path, message: FORBIDDEN_CHARACTERS_MESSAGE, input: undefined });
    }
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, index) => forbiddenCharacterIssues(item, [...path, index], issues));
    return;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (hasForbiddenCharacters(key)) issues.push({ code: 'custom', path, message: FORBIDDEN_CHARACTERS_MESSAGE, input: undefined });
      else forbiddenCharacterIssues(item, [...path, key], issues);
    }
  }
}

/** Refuses control, invisible and direction-changing characters anywhere in the input, field by field. */
const safeTextSchema = z.unknown().superRefine((value, context) => {
  const issues: z.core.$ZodRawIssue[] = [];
  forbiddenCharacterIssues(value, [], issues);
  for (const issue of issues) context.addIssue(issue);
});
type ValidationResult = { error?: FastifySchemaValidationError[]; value?: unknown };
const checkSafeText = validatorCompiler({ schema: safeTextSchema } as never) as (data: unknown) => ValidationResult;

/**
 * The zod validator of every route, preceded by the character rule for the
 * body, query string and path parameters, so that no free-text field (today's
 * or one added later) lets these characters reach the database or a screen.
 */
export const safeTextValidatorCompiler: FastifySchemaCompiler<FastifySchema> = (routeSchema) => {
  const validate = validatorCompiler(routeSchema as never) as (data: unknown) => ValidationResult;
  if (routeSchema.httpPart === 'headers') return validate;
  return (data: unknown) => {
    const refused = checkSafeText(data);
    return refused.error ? refused : validate(data);
  };
};
