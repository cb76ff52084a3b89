import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { SETTLEMENTS } from '../../../src/domain/enumerations.ts';
import {
  type DerivedSettlement,
  type LedgerEntry,
  NOT_SETTLED,
  nextLedgerEntry,
} from '../../../src/domain/markets/settlement-ledger.ts';
import { SETTLEMENT_REASONS } from '../../../src/domain/markets/settlement-reason.ts';

const T1 = '2026-06-01T00:00:00.000Z';
const T2 = '2026-06-01T00:05:00.000Z';
const won: DerivedSettlement = {
  settlement: 'WIN',
  settlementReason: 'RESULT',
  deadHeatFactor: 1,
  settlementStatus: 'OFFICIAL',
};
const lost: DerivedSettlement = { ...won, settlement: 'LOSE' };
const entry = (derived: DerivedSettlement, settledAt = T1): LedgerEntry => ({ ...derived, settledAt });

describe('settlement ledger', () => {
  test('table', () => {
    const table: Array<[string, LedgerEntry | undefined, DerivedSettlement, LedgerEntry, boolean]> = [
      ['first settlement', undefined, won, entry(won, T2), true],
      ['nothing moved', entry(won), won, entry(won), false],
      ['never settled', undefined, { ...NOT_SETTLED }, NOT_SETTLED, false],
      ['result changed', entry(won), lost, entry({ ...lost, settlementReason: 'RESULT_CHANGED' }, T2), true],
      [
        'changed twice',
        entry({ ...lost, settlementReason: 'RESULT_CHANGED' }),
        won,
        entry({ ...won, settlementReason: 'RESULT_CHANGED' }, T2),
        true,
      ],
      [
        'a dead heat found later',
        entry(won),
        { ...won, settlementReason: 'DEAD_HEAT', deadHeatFactor: 0.5 },
        entry({ ...won, settlementReason: 'RESULT_CHANGED', deadHeatFactor: 0.5 }, T2),
        true,
      ],
      ['provisional made official', entry({ ...won, settlementStatus: 'PROVISIONAL' }), won, entry(won), true],
      [
        'a result then the event cancelled',
        entry(won),
        { ...won, settlement: 'VOID', settlementReason: 'EVENT_CANCELLED' },
        entry({ ...won, settlement: 'VOID', settlementReason: 'EVENT_CANCELLED' }, T2),
        true,
      ],
      [
        'the operator overrides',
        entry(won),
        { ...lost, settlementReason: 'OPERATOR' },
        entry({ ...lost, settlementReason: 'OPERATOR' }, T2),
        true,
      ],
      ['a result withdrawn', entry(won), { ...NOT_SETTLED }, NOT_SETTLED, true],
    ];
    for (const [name, previous, derived, expected, changed] of table)
      assert.deepEqual(nextLedgerEntry(previous, derived, T2), { entry: expected, changed }, name);
  });

  const derivedArb = fc.record({
    settlement: fc.constantFrom(...SETTLEMENTS),
    // The derivation never says RESULT_CHANGED: only the ledger does.
    settlementReason: fc.constantFrom(...SETTLEMENT_REASONS.filter((r) => r !== 'RESULT_CHANGED')),
    deadHeatFactor: fc.constantFrom(1, 0.5),
    settlementStatus: fc.constantFrom('PROVISIONAL' as const, 'OFFICIAL' as const),
  });
  const settledArb = derivedArb.map((d) =>
    d.settlement === 'NOT_SET' ? { ...NOT_SETTLED } : ({ ...d } as DerivedSettlement),
  );

  test('properties: idempotent; settledAt moves exactly when the settlement or its share does', () => {
    fc.assert(
      fc.property(fc.option(settledArb, { nil: undefined }), settledArb, (before, derived) => {
        const previous = before && (before.settlement === 'NOT_SET' ? NOT_SETTLED : entry(before));
        const { entry: next, changed } = nextLedgerEntry(previous, derived, T2);
        // The same derivation again changes nothing.
        assert.deepEqual(nextLedgerEntry(next, derived, T2), { entry: next, changed: false });
        assert.equal(next.settlement, derived.settlement);
        assert.equal(next.settlementStatus, derived.settlementStatus);
        const was = previous ?? NOT_SETTLED;
        const moved = was.settlement !== derived.settlement || was.deadHeatFactor !== derived.deadHeatFactor;
        if (derived.settlement !== 'NOT_SET') assert.equal(next.settledAt, moved ? T2 : was.settledAt);
        else assert.equal(next.settledAt, undefined);
        if (next.settlementReason === 'RESULT_CHANGED') assert.ok(was.settlement !== 'NOT_SET');
        if (!changed) assert.deepEqual(next, was);
      }),
    );
  });
});
