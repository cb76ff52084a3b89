import { operation, PUBLIC_ERRORS } from './common.ts';

/** Route 1: the competition catalogue. */
export const sportsOperation = operation({
  tags: ['sports'],
  summary: 'Fetch all sports',
  description: "The competition catalogue with each competition's supported markets.",
  errors: PUBLIC_ERRORS,
  codes: [],
});
