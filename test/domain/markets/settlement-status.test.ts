import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { RESULT_STATUSES, SETTLEMENTS } from '../../../src/domain/enumerations.ts';
import { type SettlementStatusFacts, settlementStatus } from '../../../src/domain/markets/settlement-status.ts';

const WON: SettlementStatusFacts = { settlement: 'WIN', byOperator: false, resultStatus: 'OFFICIAL' };

describe('settlement status', () => {
  test('table', () => {
    const table: Array<[Partial<SettlementStatusFacts>, string | undefined]> = [
      [{}, 'OFFICIAL'],
      [{ resultStatus: 'PROVISIONAL' }, 'PROVISIONAL'],
      [{ settlement: 'VOID', resultStatus: 'PROVISIONAL' }, 'PROVISIONAL'],
      [{ resultStatus: undefined }, 'OFFICIAL'],
      [{ byOperator: true, resultStatus: 'PROVISIONAL' }, 'OFFICIAL'],
      [{ settlement: 'NOT_SET' }, undefined],
      [{ settlement: 'NOT_SET', resultStatus: 'PROVISIONAL' }, undefined],
    ];
    for (const [facts, status] of table)
      assert.equal(settlementStatus({ ...WON, ...facts }), status, JSON.stringify(facts));
  });

  test('properties: a status exactly when settled; PROVISIONAL only from a provisional result', () => {
    const facts = fc.record({
      settlement: fc.constantFrom(...SETTLEMENTS),
      byOperator: fc.boolean(),
      resultStatus: fc.constantFrom(...RESULT_STATUSES, undefined),
    }) as fc.Arbitrary<SettlementStatusFacts>;
    fc.assert(
      fc.property(facts, (f) => {
        const status = settlementStatus(f);
        assert.equal(status === undefined, f.settlement === 'NOT_SET');
        if (status === 'PROVISIONAL') assert.ok(!f.byOperator && f.resultStatus === 'PROVISIONAL');
      }),
    );
  });
});
