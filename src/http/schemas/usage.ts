import { operation } from './common.ts';

/** GET /usage: the calling key's use of its limits. */
export const usageOperation = operation({
  tags: ['usage'],
  summary: "Fetch the key's usage",
  description:
    "The calling key's requests this clock minute, this UTC day and this calendar month against its limits and its plan's monthly quota (limit and remaining null where it has none), and today's requests by route template. " +
    'Counts are kept in the store: they cover every server and outlive restarts (written every USAGE_FLUSH_SECONDS). ' +
    'Answered even when the key is over its limit, and not counted itself.',
  errors: { 401: 'missing or invalid API key' },
  codes: [],
});
