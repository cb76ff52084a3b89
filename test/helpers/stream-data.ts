import assert from 'node:assert/strict';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { STREAM_EVENT_DATA, type StreamEventName } from '../../src/http/schemas/stream.ts';

const ajv = new Ajv({ allErrors: true, strict: false });
addFormats.default(ajv);
const validators = new Map<string, ValidateFunction>();

/** Fails unless `data` is what the OpenAPI document says a stream event of that name carries. */
export function assertStreamData(event: string, data: unknown): void {
  assert.ok(event in STREAM_EVENT_DATA, `a stream event the OpenAPI document does not describe: ${event}`);
  let validate = validators.get(event);
  if (!validate) {
    validate = ajv.compile(STREAM_EVENT_DATA[event as StreamEventName]);
    validators.set(event, validate);
  }
  assert.ok(validate(data), `${event} data ${JSON.stringify(data)}: ${ajv.errorsText(validate.errors)}`);
}
