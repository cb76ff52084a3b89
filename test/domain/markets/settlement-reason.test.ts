import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { SETTLEMENTS } from '../../../src/domain/enumerations.ts';
import { type SettlementFacts, settlementReason } from '../../../src/domain/markets/settlement-reason.ts';

const WON: SettlementFacts = { settlement: 'WIN', byOperator: false, resultState: 'decided', deadHeatFactor: 1 };

describe('settlement reason', () => {
  test('table', () => {
    const table: Array<[Partial<SettlementFacts>, string | undefined]> = [
      [{}, 'RESULT'],
      [{ settlement: 'LOSE' }, 'RESULT'],
      [{ deadHeatFactor: 0.5 }, 'DEAD_HEAT'],
      [{ settlement: 'VOID' }, 'NON_RUNNER'],
      [{ settlement: 'VOID', resultState: 'void' }, 'EVENT_CANCELLED'],
      [{ settlement: 'VOID', resultState: 'void', abandoned: true }, 'EVENT_ABANDONED'],
      [{ settlement: 'VOID', resultState: 'void', abandoned: false }, 'EVENT_CANCELLED'],
      [{ byOperator: true, settlement: 'VOID', resultState: 'void', abandoned: true }, 'OPERATOR'],
      [{ settlement: 'PUSH', resultState: 'push' }, 'RESULT'],
      [{ byOperator: true, settlement: 'VOID' }, 'OPERATOR'],
      [{ byOperator: true, settlement: 'LOSE', resultState: undefined }, 'OPERATOR'],
      [{ settlement: 'NOT_SET', resultState: 'pending' }, undefined],
      [{ settlement: 'NOT_SET', byOperator: true }, undefined],
    ];
    for (const [facts, reason] of table)
      assert.equal(settlementReason({ ...WON, ...facts }), reason, JSON.stringify(facts));
  });

  test('properties: a reason exactly when settled; the operator always names itself', () => {
    const facts = fc.record({
      settlement: fc.constantFrom(...SETTLEMENTS),
      byOperator: fc.boolean(),
      resultState: fc.constantFrom('pending', 'decided', 'void', 'push', undefined),
      deadHeatFactor: fc.constantFrom(1, 0.5, 1 / 3),
      abandoned: fc.boolean(),
    }) as fc.Arbitrary<SettlementFacts>;
    fc.assert(
      fc.property(facts, (f) => {
        const reason = settlementReason(f);
        assert.equal(reason === undefined, f.settlement === 'NOT_SET');
        if (f.byOperator && reason !== undefined) assert.equal(reason, 'OPERATOR');
        if (reason === 'DEAD_HEAT') assert.ok(f.settlement === 'WIN' && f.deadHeatFactor < 1);
        if (reason === 'EVENT_ABANDONED') assert.ok(f.abandoned && f.resultState === 'void');
      }),
    );
  });
});
