import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { FORM, heatStandings, heatTilt, inPlayField, knockedOutPlaces } from '../../../src/domain/pricing/in-play.ts';

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
const ids = (n: number) => Array.from({ length: n }, (_, i) => `a${i}`);

/** The heat leader's chance of winning the heat: its share of the heat's weights in the field's model. */
function heatShare(field: { athleteIds: string[]; win: number[] }, heat: readonly string[], athlete: string): number {
  const weight = (id: string) => field.win[field.athleteIds.indexOf(id)] as number;
  return weight(athlete) / sum(heat.map(weight));
}

describe('in play: the field still in', () => {
  test('knocked-out places: each round shares the places below those who went further', () => {
    const places = knockedOutPlaces(
      [
        ['a', 'b', 'c', 'd'],
        ['e', 'f'],
      ],
      8,
    );
    assert.deepEqual(Object.fromEntries(places), {
      a: { from: 5, to: 8 },
      b: { from: 5, to: 8 },
      c: { from: 5, to: 8 },
      d: { from: 5, to: 8 },
      e: { from: 3, to: 4 },
      f: { from: 3, to: 4 },
    });
  });

  test('heat tilt: none at the start or with everyone level; from e^FORM to e^-FORM at the end', () => {
    const standings = [
      { athleteId: 'x', standing: 7.11 },
      { athleteId: 'y', standing: 0 },
    ];
    const table: Array<[number, typeof standings, Record<string, number>]> = [
      [0, standings, { x: 1, y: 1 }],
      [1, standings, { x: Math.exp(FORM), y: Math.exp(-FORM) }],
      [0.55, standings, { x: Math.exp(FORM * 0.5), y: Math.exp(-FORM * 0.5) }],
      [1, standings.map((s) => ({ ...s, standing: 3 })), { x: 1, y: 1 }],
    ];
    for (const [progress, rows, expected] of table) {
      const tilt = heatTilt({ standings: rows, progress });
      for (const [id, factor] of Object.entries(expected))
        assert.ok(Math.abs((tilt.get(id) as number) - factor) < 1e-12, `${progress}: ${id}`);
    }
  });

  test('heat standings: by position, else by score; unscored at nothing where the best score wins, left out where the lowest does', () => {
    const table: Array<[string, Parameters<typeof heatStandings>[2], Record<string, number>]> = [
      ['judged', [{ athleteId: 'miller', heatScore: 7.11 }, { athleteId: 'leroy' }], { miller: 7.11, leroy: 0 }],
      [
        'timed-race',
        [{ athleteId: 'a', heatScore: 61.2 }, { athleteId: 'b', heatScore: 60.9 }, { athleteId: 'c' }],
        { a: -61.2, b: -60.9 },
      ],
      [
        'timed-race',
        [
          { athleteId: 'a', position: 2, heatScore: 1 },
          { athleteId: 'b', position: 1 },
        ],
        { a: -2, b: -1 },
      ],
    ];
    for (const [format, entries, expected] of table) {
      const standings = heatStandings(
        format,
        entries.map((e) => e.athleteId),
        entries,
      );
      assert.deepEqual(Object.fromEntries(standings.map((s) => [s.athleteId, s.standing])), expected, format);
    }
  });

  test('athletes knocked out leave the field; the rest keep their relative chances and sum to 1', () => {
    const field = inPlayField(ids(4), [0.4, 0.3, 0.2, 0.1], { knockedOut: knockedOutPlaces([['a1']], 4) });
    assert.deepEqual(field.athleteIds, ['a0', 'a2', 'a3']);
    assert.ok(Math.abs(sum(field.win) - 1) < 1e-12);
    assert.ok(Math.abs((field.win[0] as number) / (field.win[1] as number) - 2) < 1e-12);
    assert.deepEqual(field.decided.get('a1'), { from: 4, to: 4 });
  });

  const scenario = fc.record({
    raw: fc.array(fc.double({ min: 0.05, max: 5, noNaN: true }), { minLength: 6, maxLength: 16 }),
    out: fc.integer({ min: 0, max: 3 }),
    heatSize: fc.integer({ min: 2, max: 4 }),
    scores: fc.array(fc.double({ min: 0, max: 10, noNaN: true }), { minLength: 4, maxLength: 4 }),
    progress: fc.double({ min: 0, max: 1, noNaN: true }),
    extra: fc.double({ min: 0, max: 10, noNaN: true }),
  });

  test('properties: chances sum to 1, knocked-out places are certain, the heat leader never loses ground and gains with the lead', () => {
    fc.assert(
      fc.property(scenario, ({ raw, out, heatSize, scores, progress, extra }) => {
        const athletes = ids(raw.length);
        const win = raw.map((x) => x / sum(raw));
        // The heat in play is ridden by athletes still in: those knocked out come from the rest.
        const gone = Math.min(out, athletes.length - heatSize);
        const knockedOut = knockedOutPlaces(
          [athletes.slice(-gone)].filter(() => gone > 0),
          athletes.length,
        );
        const heat = athletes.slice(0, heatSize);
        const standings = heat.map((athleteId, i) => ({ athleteId, standing: scores[i] as number }));
        const leader = standings.reduce((a, b) => (b.standing > a.standing ? b : a)).athleteId;
        const before = inPlayField(athletes, win, { knockedOut });
        const now = inPlayField(athletes, win, { knockedOut, heat: { standings, progress } });
        assert.ok(Math.abs(sum(now.win) - 1) < 1e-9, 'chances sum to 1');
        assert.equal(now.athleteIds.length + knockedOut.size, athletes.length);
        for (const id of knockedOut.keys()) assert.ok(!now.athleteIds.includes(id), `${id} is out`);
        for (const [id, range] of now.decided) assert.deepEqual(range, knockedOut.get(id));
        const share = heatShare(now, heat, leader);
        assert.ok(share >= heatShare(before, heat, leader) - 1e-12, 'the leader is no less likely to win the heat');
        const wider = standings.map((s) => (s.athleteId === leader ? { ...s, standing: s.standing + extra } : s));
        const ahead = inPlayField(athletes, win, { knockedOut, heat: { standings: wider, progress } });
        assert.ok(heatShare(ahead, heat, leader) >= share - 1e-12, 'a wider lead is no worse');
        const later = inPlayField(athletes, win, {
          knockedOut,
          heat: { standings, progress: Math.min(1, progress + 0.1) },
        });
        assert.ok(heatShare(later, heat, leader) >= share - 1e-12, 'the same lead later in the heat is no worse');
      }),
    );
  });
});
