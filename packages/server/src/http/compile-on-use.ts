import type { ValidatorFactory } from '@fastify/ajv-compiler';
import { SerializerSelector, type Serializer, type SerializerFactory } from '@fastify/fast-json-stringify-compiler';

/**
 * Fastify compiles every route's validators (Ajv) and response serializers (fast-json-stringify)
 * while the app starts. For our few hundred schemas that was the largest single step of a cold
 * start, and its garbage the largest part of the embedded process's peak memory (docs/embedded.md
 * has the figures), all before the first request could be answered, though most routes are never
 * called in a given run. Here each one is compiled when its route first needs it, with the same
 * compiler and options, and kept. A schema that does not compile fails its route's first request
 * (500) instead of the start; the tests exercise every route, and `npm run generate` compiles
 * every response schema into the OpenAPI document.
 */

type Validate = ((data: unknown, context?: unknown) => unknown) & { errors?: unknown; schemaEnv?: unknown };
type CompileRoute<F> = (route: unknown) => F;

function validatorOnUse(compile: () => Validate): Validate {
  let compiled: Validate | undefined;
  const validate: Validate = (data, context) => {
    compiled ??= compile();
    const result = compiled(data, context);
    // Fastify reads a failed validation's errors from the function it called.
    validate.errors = compiled.errors;
    return result;
  };
  // Fastify hands Ajv's validators their parent object (so a root value can be coerced) when
  // the function has Ajv's schemaEnv; asked at the first request, so compiling then is no loss.
  Object.defineProperty(validate, 'schemaEnv', { get: () => (compiled ??= compile()).schemaEnv });
  return validate;
}

/** A validator factory (Fastify's schemaController.compilersFactory.buildValidator) whose validators compile on first use. */
export function validatorsOnUse(factory: ValidatorFactory): ValidatorFactory {
  return ((externalSchemas: unknown, options: unknown) => {
    const compileRoute = (factory as unknown as (s: unknown, o: unknown) => CompileRoute<Validate>)(externalSchemas, options);
    return (route: unknown) => validatorOnUse(() => compileRoute(route));
  }) as unknown as ValidatorFactory;
}

/** Fastify's own serializer factory (fast-json-stringify), its serializers compiled on first use. */
export function serializersOnUse(): SerializerFactory {
  const factory = SerializerSelector();
  return (externalSchemas, options) => {
    const compileRoute = factory(externalSchemas, options);
    return (route) => {
      let compiled: Serializer | undefined;
      return (data) => (compiled ??= compileRoute(route))(data);
    };
  };
}
