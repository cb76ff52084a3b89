import { Type } from 'typebox';
import { operation } from './common.ts';

export const HealthStatus = Type.Object({
  status: Type.Literal('ok'),
  store: Type.String(),
  version: Type.String({ description: "the server's release, as `altsports --version` prints it" }),
  uptimeSeconds: Type.Number(),
});

/** GET /healthz: readiness, for load balancers and orchestrators. */
export const healthOperation = operation({
  tags: ['operations'],
  summary: 'Readiness',
  description:
    'Answers 200 when the store answers, 503 otherwise: when it cannot be reached, or once a read found the SQLite file corrupt (which a restart does not mend). Needs no key.',
  security: [],
  errors: { 503: 'the store cannot be reached, or a read found it corrupt' },
  codes: ['STORE_UNAVAILABLE', 'STORE_CORRUPT'],
});
