/**
 * JSON request bodies: Fastify's own parser (prototype-poisoning checks from secure-json-parse),
 * plus a refusal of objects that repeat a key. JSON.parse keeps the last value of a repeated
 * key while other parsers keep the first, so a body like `{"status":"a","status":"b"}` could
 * mean two things to two programs; it is a 400 instead.
 */
import fp from 'fastify-plugin';
import { visit } from 'jsonc-parser';
import { AppError } from '../../errors.ts';

/** The first key that an object of the JSON text repeats, with its path (`a.b`), if any. */
export function firstDuplicateKey(text: string): string | undefined {
  const open: Set<string>[] = [];
  let duplicate: string | undefined;
  visit(text, {
    onObjectBegin: () => {
      open.push(new Set());
      return duplicate === undefined;
    },
    onObjectProperty: (property, _offset, _length, _line, _char, pathSupplier) => {
      const keys = open.at(-1);
      if (!keys || duplicate !== undefined) return;
      if (keys.has(property)) duplicate = [...pathSupplier(), property].join('.');
      else keys.add(property);
    },
    onObjectEnd: () => void open.pop(),
  });
  return duplicate;
}

export default fp(
  async (app) => {
    const parseJson = app.getDefaultJsonParser('error', 'error');
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      const text = String(body);
      parseJson(request, text, (error: Error | null, value?: unknown) => {
        if (error) return done(error, undefined);
        const duplicate = firstDuplicateKey(text);
        if (duplicate === undefined) return done(null, value);
        const message = `The request body repeats the key "${duplicate}"`;
        done(new AppError(400, 'DUPLICATE_KEY', message, [{ field: duplicate, message }]), undefined);
      });
    });
  },
  { name: 'json-body' },
);
