/**
 * Turns the server's OpenAPI document into the client's `src/schema.ts`. Shared by the generator
 * (scripts/generate.ts) and the drift test (test/clients/typescript/schema-drift.test.ts), so that
 * both produce the same bytes from the same document.
 */
import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from 'openapi-typescript';

/** The generated file's path, relative to the package root. */
export const SCHEMA_FILE = 'src/schema.ts';

const HEADER = `${COMMENT_HEADER.trimEnd()}\n// Generated from the altsports OpenAPI document by \`npm run client:generate\`; the drift test\n// (test/clients/typescript/schema-drift.test.ts) fails when it no longer matches the server.\n\n`;

export async function renderSchema(document: unknown): Promise<string> {
  // A deep copy: openapi-typescript (through redocly) annotates the object it is given.
  const source = structuredClone(document) as OpenAPI3;
  const nodes = await openapiTS(source, {
    // Only the inline `additionalProperties` of the document open an object; the rest are exact.
    additionalProperties: false,
    // Members keep the document's order, which follows the route schemas: a diff reads like the schema change.
    alphabetize: false,
    silent: true,
  });
  return `${HEADER}${astToString(nodes)}`;
}
