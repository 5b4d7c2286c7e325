/**
 * How request schemas are checked. JSON bodies are never coerced (a number where a string
 * belongs is a 400), unknown keys are refused rather than silently dropped, and every error is
 * reported; query strings and params are coerced, since they are text by nature. A schema may
 * give its own message for people with `errorMessage` (ajv-errors), where Ajv's own wording
 * ('must match pattern "^[\x21-\x7E]{1,255}$"') would mean nothing to them.
 */
import { Ajv, type ErrorObject } from 'ajv';
import ajvErrorsModule from 'ajv-errors';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler, FastifySchemaValidationError } from 'fastify';
import { tooLong, type FieldError } from './domain/messages.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const ajvErrors = ajvErrorsModule as unknown as (ajv: Ajv) => Ajv;

function makeAjv(coerceTypes: boolean | 'array'): Ajv {
  return ajvErrors(
    addFormats(new Ajv({ coerceTypes, useDefaults: true, removeAdditional: false, allErrors: true, strict: false })),
  );
}

const bodyAjv = makeAjv(false);
const textAjv = makeAjv('array');

type Validator = ReturnType<FastifySchemaCompiler<unknown>>;
const compiled = new Map<string, Validator>();

/**
 * Each schema compiled once per process, found by what it says: routes write their schemas
 * inline, so every build of the app makes new objects (Ajv's own cache is by object), and the
 * tests build hundreds of apps in a few dozen processes (src/serialization.ts does the same for
 * responses).
 */
export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const coerce = httpPart !== 'body';
  const key = `${coerce}\n${JSON.stringify(schema)}`;
  let validator = compiled.get(key);
  if (!validator) compiled.set(key, (validator = (coerce ? textAjv : bodyAjv).compile(schema as object) as Validator));
  return validator;
};

const FORMAT_MESSAGES: Record<string, string> = {
  date: 'Must be a real date written YYYY-MM-DD',
  uuid: 'Must be an id (a UUID)',
};

/** 'idempotency-key' → 'Idempotency-Key': headers are named as the API documents them. */
const headerName = (name: string) => name.replace(/(^|-)([a-z])/g, (_, dash: string, letter: string) => dash + letter.toUpperCase());

/**
 * Turns schema errors into `{ field, message }` pairs naming the payload key, or the header for
 * errors in the headers (`context` is Fastify's validationContext).
 */
export function toFieldErrors(errors: FastifySchemaValidationError[], context?: string): FieldError[] {
  const result: FieldError[] = [];
  for (const error of errors as ErrorObject[]) {
    const instancePath = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
    const path = context === 'headers' ? headerName(instancePath) : instancePath;
    switch (error.keyword) {
      case 'additionalProperties':
        result.push({ field: String(error.params.additionalProperty), message: 'Unknown field' });
        break;
      case 'required':
        result.push({ field: String(error.params.missingProperty), message: 'This field is required' });
        break;
      case 'type':
        result.push(
          path === ''
            ? { field: '', message: 'The request body must be a JSON object' }
            : { field: path, message: `Must be a ${error.params.type}` },
        );
        break;
      case 'maxLength':
        result.push({ field: path, message: tooLong(Number(error.params.limit)) });
        break;
      case 'format':
        result.push({ field: path, message: FORMAT_MESSAGES[String(error.params.format)] ?? error.message ?? 'Invalid value' });
        break;
      default:
        result.push({ field: path, message: error.message ?? 'Invalid value' });
    }
  }
  return result.filter((e, i) => result.findIndex((o) => o.field === e.field) === i);
}
