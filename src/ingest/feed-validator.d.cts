import type { ValidateFunction } from 'ajv';

/** The feed document's validator (feed-validator.cjs, generated from feed-schema.ts by `npm run feed:validator`). */
declare const validate: ValidateFunction;
export = validate;
