import assert from 'node:assert/strict';
import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import { ResponseSerializationError } from 'fastify-type-provider-zod';
import { z } from 'zod';

/** Schema kinds that only describe data: checking a value against them gives the same answer in both of zod's directions. */
const LEAF_KINDS = new Set([
  'string',
  'number',
  'int',
  'boolean',
  'bigint',
  'null',
  'undefined',
  'literal',
  'enum',
  'date',
  'any',
  'unknown',
  'never',
  'nan',
  'template_literal',
  'custom',
]);
/** Wrappers that hold one inner schema and change neither the value nor its direction. */
const WRAPPER_KINDS = new Set(['optional', 'nullable', 'readonly', 'nonoptional']);

/**
 * Fails (a bug, found when the route is registered) unless the schema is plain data: no transform,
 * pipe, codec, default or catch anywhere in it. For such a schema zod's encode and a forward parse
 * give the same result, the value with unknown keys left out; a transform would run only forward.
 */
export function assertPlainDataSchema(schema: z.core.$ZodType, path = 'response'): void {
  const definition = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  const kind = definition.type;
  const inner = (child: unknown, childPath: string) => assertPlainDataSchema(child as z.core.$ZodType, childPath);
  if (LEAF_KINDS.has(kind)) return;
  if (WRAPPER_KINDS.has(kind)) return inner(definition.innerType, path);
  switch (kind) {
    case 'object': {
      for (const [key, child] of Object.entries(definition.shape as Record<string, unknown>)) inner(child, `${path}.${key}`);
      if (definition.catchall) inner(definition.catchall, `${path}.*`);
      return;
    }
    case 'array':
      return inner(definition.element, `${path}[]`);
    case 'union':
      (definition.options as unknown[]).forEach((option, index) => inner(option, `${path}|${index}`));
      return;
    case 'intersection':
      inner(definition.left, path);
      return inner(definition.right, path);
    case 'record':
      inner(definition.keyType, `${path}{key}`);
      return inner(definition.valueType, `${path}{}`);
    case 'tuple':
      (definition.items as unknown[]).forEach((item, index) => inner(item, `${path}[${index}]`));
      if (definition.rest) inner(definition.rest, `${path}[...]`);
      return;
    default:
      assert.fail(`the response schema at ${path} is a ${kind}: answers are checked forward, so a response schema must be plain data`);
  }
}

/**
 * Every answer is checked against its route's response schema before it is sent, as
 * fastify-type-provider-zod's serializer does, but faster: that one encodes (zod's backward
 * direction, which parses each checked value twice), where this one parses forward with the schema
 * compiled once at start (`z.compile`: generated code instead of walking the schema). For the plain
 * data schemas that answers have (checked above) both give the same value, and a value that does not
 * match fails the same way: a ResponseSerializationError, which the error handler answers with 500.
 */
export const checkedResponseSerializerCompiler: FastifySerializerCompiler<unknown> = ({ schema, method, url }) => {
  assert.ok(schema instanceof z.core.$ZodType, 'every response schema is a zod schema');
  assertPlainDataSchema(schema, `${method} ${url}`);
  const compiled = z.compile(schema);
  return (data: unknown) => {
    const result = z.safeParse(compiled, data);
    if (!result.success) throw new ResponseSerializationError(method, url, { cause: result.error });
    return JSON.stringify(result.data);
  };
};
