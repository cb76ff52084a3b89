import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { feedValidatorSource, VALIDATOR_FILE } from '../../scripts/feed-validator.ts';
import validateDocument from '../../src/ingest/feed-validator.cjs';

test('src/ingest/feed-validator.cjs is what Ajv makes of the feed schema now (else: npm run feed:validator)', async () => {
  assert.equal(await readFile(VALIDATOR_FILE, 'utf8'), feedValidatorSource());
});

test('the generated validator refuses what the schema refuses, naming the place', () => {
  assert.equal(validateDocument({ events: [] }), true);
  assert.equal(validateDocument({ events: [{ id: 7 }] }), false);
  const paths = new Set(validateDocument.errors?.map((e) => e.instancePath));
  assert.ok(paths.has('/events/0/id'), [...paths].join(' '));
  assert.equal(validateDocument({ frobnicate: [] }), false);
  assert.equal(validateDocument.errors?.[0]?.keyword, 'additionalProperties');
  assert.equal(validateDocument({ updatedAt: 'yesterday' }), false);
  assert.equal(validateDocument.errors?.[0]?.keyword, 'format');
});
