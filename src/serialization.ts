/**
 * How response bodies are written: Fastify's own serializer compiler (fast-json-stringify), with
 * each response schema's serializer compiled once per process rather than once per app. Compiling
 * them was about half of what building the app cost (some 400 ms on a 2-core machine), and the
 * tests build hundreds of apps in a few dozen processes; the server builds one. Routes write their
 * schemas inline, so each build makes new objects: a serializer is found by what its schema says
 * (JSON), with the shared schemas and options it was compiled with, the only other things it
 * depends on.
 */
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

type BuildSerializer = NonNullable<NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>['buildSerializer']>;
type Serializer = ReturnType<ReturnType<BuildSerializer>>;

const compilerFor = SerializerSelector() as unknown as BuildSerializer;
const compiled = new Map<string, Serializer>();

export const buildSerializer: BuildSerializer = (externalSchemas, serializerOptions) => {
  const compile = compilerFor(externalSchemas, serializerOptions);
  const context = JSON.stringify([externalSchemas ?? null, serializerOptions ?? null]);
  return (route) => {
    const key = `${context}\n${JSON.stringify(route.schema)}`;
    let serializer = compiled.get(key);
    if (!serializer) compiled.set(key, (serializer = compile(route)));
    return serializer;
  };
};
