import { Type } from 'typebox';
import type { ErrorCode } from '../../domain/errors.ts';
import { UsageRow } from '../../shapes/admin-keys.ts';
import { Ref } from '../../shapes/common.ts';
import { operation } from './common.ts';

/** The admin API's key, plan and usage routes (routes/admin-keys.ts): their parameters and documentation. */

export const KeyParams = Type.Object({
  keyId: Type.String({ maxLength: 200, description: "a key's id (or the start of it)" }),
});
export const PlanParams = Type.Object({ planId: Type.String({ maxLength: 200, description: "a plan's id or name" }) });

/** An admin route's documentation: its errors those of every admin route and `more`. */
const adminOperation = ({
  more = {},
  ...docs
}: {
  summary: string;
  description?: string;
  more?: Record<number, string>;
  codes: readonly ErrorCode[];
}) =>
  operation({
    tags: ['admin'],
    security: [{ AdminKeyAuth: [] }],
    errors: { 400: 'invalid request', 401: 'missing or invalid admin key', ...more },
    ...docs,
  });

/** The key an id or a prefix names: none, or several. */
const KEY_CODES = ['API_KEY_NOT_FOUND', 'API_KEY_AMBIGUOUS'] as const;

export const issueKeyOperation = adminOperation({
  summary: 'Issue an API key',
  description: 'The key is in this answer only: the store keeps a hash of it.',
  more: { 404: 'no such plan' },
  codes: ['KEY_LIMIT_INVALID', 'PLAN_NOT_FOUND'],
});

export const listKeysOperation = adminOperation({
  summary: 'List API keys, with their requests today and this month',
  codes: [],
});

export const showKeyOperation = adminOperation({
  summary: 'Show an active API key, with its requests today and this month',
  more: { 404: 'no active key with this id' },
  codes: KEY_CODES,
});

export const changeKeyOperation = adminOperation({
  summary: "Change a key's limits or plan",
  description: 'A running server applies the change within 5 seconds.',
  more: { 404: 'no active key with this id, or no such plan' },
  codes: [...KEY_CODES, 'KEY_LIMIT_INVALID', 'PLAN_NOT_FOUND'],
});

export const revokeKeyOperation = adminOperation({
  summary: 'Revoke an API key',
  description: 'Its requests are refused within 5 seconds, and its open streams end.',
  more: { 404: 'no active key with this id' },
  codes: KEY_CODES,
});

export const rotateKeyOperation = adminOperation({
  summary: 'Give a key a new secret',
  description:
    'The same key (id, limits, plan, usage) with a new secret, in this answer only; the old secret stops working within 5 seconds.',
  more: { 404: 'no active key with this id' },
  codes: KEY_CODES,
});

export const addPlanOperation = adminOperation({
  summary: 'Add a plan',
  more: { 409: 'a plan already has this name' },
  codes: ['KEY_LIMIT_INVALID', 'PLAN_NAME_MISSING', 'PLAN_NAME_TAKEN'],
});

export const listPlansOperation = adminOperation({ summary: 'List plans', codes: [] });

export const showPlanOperation = adminOperation({
  summary: 'Show a plan',
  more: { 404: 'no such plan' },
  codes: ['PLAN_NOT_FOUND'],
});

export const changePlanOperation = adminOperation({
  summary: 'Change a plan',
  description: "The plan's keys follow within 5 seconds.",
  more: { 404: 'no such plan' },
  codes: ['KEY_LIMIT_INVALID', 'PLAN_NOT_FOUND'],
});

/** The usage export: JSON rows, or the same as CSV. */
export const UsageExport = {
  content: {
    'application/json': { schema: Type.Array(Ref(UsageRow)) },
    'text/csv': { schema: Type.String() },
  },
};

export const exportUsageOperation = adminOperation({
  summary: 'Export usage: requests per key, UTC day and route',
  description:
    'Every counted request of the days from..to (both included; this month so far by default), as written to the store (every USAGE_FLUSH_SECONDS by each server). ' +
    'JSON, or CSV (`keyId,day,route,requests`) with `Accept: text/csv`.',
  codes: [],
});
