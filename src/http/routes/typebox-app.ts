import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

/** The app a route file's plugin is given, typed by TypeBox: what the file's route functions take. */
export type TypeBoxApp = Parameters<FastifyPluginAsyncTypebox>[0];
