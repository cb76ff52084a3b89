import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import type { ResultsFormat } from '../../../src/domain/competitions.ts';
import {
  athleteFastestLap,
  fastestLapCounts,
  heatLapStatistics,
  type LapEntry,
  type LapRecord,
} from '../../../src/domain/results/lap-statistics.ts';

const lap = (entryId: string, lapNo: number, lapTime: number | null, position: number | null = null): LapRecord => ({
  entryId,
  lapNo,
  lapTime,
  position,
});
const entries = (...ids: string[]): LapEntry[] => ids.map((id) => ({ id, lapStatus: 'ACT' }));

/** A three-lap race of A, B and C: B leads lap 1 with the quickest lap 1, A leads laps 2 and 3. */
const RACE: LapRecord[] = [
  lap('A', 1, 50.0, 2),
  lap('B', 1, 49.0, 1),
  lap('C', 1, 51.0, 3),
  lap('A', 2, 47.5, 1),
  lap('B', 2, 48.0, 2),
  lap('C', 2, 47.9, 3),
  lap('A', 3, 47.8, 1),
  lap('B', 3, 47.7, 2),
  lap('C', 3, 48.5, 3),
];

describe('lap statistics', () => {
  test('supercross-style racing: laps led count lap 1, fastest-lap figures exclude it', () => {
    const stats = heatLapStatistics('supercross-laps', entries('A', 'B', 'C', 'D'), RACE);
    assert.deepEqual(stats.get('A'), {
      athleteLapsLed: 2,
      athleteFastestLapCount: 1,
      athleteFastestLapSeconds: 47.5,
      athleteFastestLapNo: 2,
    });
    assert.deepEqual(stats.get('B'), {
      athleteLapsLed: 1,
      athleteFastestLapCount: 1,
      athleteFastestLapSeconds: 47.7,
      athleteFastestLapNo: 3,
    });
    assert.deepEqual(stats.get('C'), {
      athleteLapsLed: 0,
      athleteFastestLapCount: 0,
      athleteFastestLapSeconds: 47.9,
      athleteFastestLapNo: 2,
    });
    // D has no lap records: did not race.
    assert.deepEqual(stats.get('D'), {
      athleteLapsLed: null,
      athleteFastestLapCount: null,
      athleteFastestLapSeconds: null,
      athleteFastestLapNo: null,
    });
  });

  test("hlrs includes lap 1 in the athlete's own quickest lap, but never in the fastest-lap count", () => {
    const laps = [lap('A', 1, 40.0, 1), lap('A', 2, 41.0, 1), lap('B', 1, 42.0, 2), lap('B', 2, 40.5, 2)];
    const stats = heatLapStatistics('sprint-laps', entries('A', 'B'), laps);
    assert.deepEqual(stats.get('A'), {
      athleteLapsLed: 2,
      athleteFastestLapCount: 0,
      athleteFastestLapSeconds: 40,
      athleteFastestLapNo: 1,
    });
    assert.deepEqual(stats.get('B'), {
      athleteLapsLed: 0,
      athleteFastestLapCount: 1,
      athleteFastestLapSeconds: 40.5,
      athleteFastestLapNo: 2,
    });
    const supercross = heatLapStatistics('supercross-laps', entries('A', 'B'), laps);
    assert.equal(supercross.get('A')?.athleteFastestLapSeconds, 41);
    assert.equal(supercross.get('A')?.athleteFastestLapNo, 2);
  });

  test('0 versus null', () => {
    const table: Array<
      [string, ResultsFormat, LapEntry[], LapRecord[], string, Partial<Record<string, number | null>>]
    > = [
      [
        'raced, led none',
        'supercross-laps',
        entries('A', 'B'),
        [lap('A', 1, 50, 1), lap('B', 1, 51, 2)],
        'B',
        { athleteLapsLed: 0, athleteFastestLapCount: 0 },
      ],
      [
        'no per-lap positions anywhere: laps led null',
        'supercross-laps',
        entries('A', 'B'),
        [lap('A', 1, 50), lap('A', 2, 49), lap('B', 2, 48)],
        'B',
        { athleteLapsLed: null, athleteFastestLapCount: 1 },
      ],
      [
        'only lap 1 run: no own fastest lap',
        'supercross-laps',
        entries('A'),
        [lap('A', 1, 50, 1)],
        'A',
        { athleteFastestLapSeconds: null, athleteFastestLapNo: null, athleteFastestLapCount: 0 },
      ],
      [
        'only lap 1 run in hlrs: lap 1 is the fastest',
        'sprint-laps',
        entries('A'),
        [lap('A', 1, 50, 1)],
        'A',
        { athleteFastestLapSeconds: 50, athleteFastestLapNo: 1, athleteFastestLapCount: 0 },
      ],
      [
        'positions without times',
        'supercross-laps',
        entries('A', 'B'),
        [lap('A', 1, null, 1), lap('A', 2, null, 1), lap('B', 2, null, 2)],
        'A',
        { athleteLapsLed: 2, athleteFastestLapCount: 0, athleteFastestLapSeconds: null },
      ],
      [
        'DNS with stray records did not race',
        'supercross-laps',
        [
          { id: 'A', lapStatus: 'DNS' },
          { id: 'B', lapStatus: 'ACT' },
        ],
        [lap('A', 2, 40, 1), lap('B', 2, 45, 2)],
        'A',
        { athleteLapsLed: null, athleteFastestLapCount: null },
      ],
      [
        "the DNS entry's lap is not credited",
        'supercross-laps',
        [
          { id: 'A', lapStatus: 'DNS' },
          { id: 'B', lapStatus: 'ACT' },
        ],
        [lap('A', 2, 40, 1), lap('B', 2, 45, 2)],
        'B',
        { athleteFastestLapCount: 1 },
      ],
      [
        'DNF keeps the laps it completed',
        'supercross-laps',
        [
          { id: 'A', lapStatus: 'DNF' },
          { id: 'B', lapStatus: 'ACT' },
        ],
        [lap('A', 1, 50, 1), lap('A', 2, 44, 1), lap('B', 1, 51, 2), lap('B', 2, 45, 2), lap('B', 3, 46, 1)],
        'A',
        { athleteLapsLed: 2, athleteFastestLapCount: 1, athleteFastestLapNo: 2 },
      ],
      [
        'formats without lap records publish null',
        'position-race',
        entries('A'),
        [lap('A', 1, 50, 1), lap('A', 2, 49, 1)],
        'A',
        {
          athleteLapsLed: null,
          athleteFastestLapCount: null,
          athleteFastestLapSeconds: null,
          athleteFastestLapNo: null,
        },
      ],
    ];
    for (const [name, format, field, laps, who, expected] of table) {
      const got = heatLapStatistics(format, field, laps).get(who) as unknown as Record<string, number | null>;
      for (const [key, value] of Object.entries(expected)) assert.equal(got[key], value, `${name}: ${key}`);
    }
  });

  test('a tie for the quickest lap goes to the entry ahead at the end of the lap, then to the earlier entry', () => {
    assert.deepEqual([...fastestLapCounts(entries('A', 'B'), [lap('A', 2, 45, 2), lap('B', 2, 45, 1)])], [['B', 1]]);
    assert.deepEqual([...fastestLapCounts(entries('A', 'B'), [lap('B', 2, 45), lap('A', 2, 45)])], [['A', 1]]);
    assert.deepEqual([...fastestLapCounts(entries('A', 'B'), [lap('B', 2, 45, 3), lap('A', 2, 45)])], [['B', 1]]);
  });

  test("the athlete's own quickest lap: an earlier lap wins a tie", () => {
    assert.deepEqual(athleteFastestLap('supercross-laps', [lap('A', 4, 45), lap('A', 2, 45), lap('A', 3, 46)]), {
      seconds: 45,
      lapNo: 2,
    });
  });

  const races = fc.tuple(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 12 })).chain(([drivers, laps]) =>
    fc.record({
      format: fc.constantFrom<ResultsFormat>('supercross-laps', 'sprint-laps'),
      statuses: fc.array(fc.constantFrom('ACT', 'DNF', 'DNS', 'BYE', 'DSQ'), {
        minLength: drivers,
        maxLength: drivers,
      }),
      // Each driver completes some prefix of the laps (a live race or a DNF), times on a coarse grid so ties happen.
      completed: fc.array(fc.integer({ min: 0, max: laps }), { minLength: drivers, maxLength: drivers }),
      times: fc.array(fc.option(fc.integer({ min: 400, max: 420 }), { freq: 8 }), {
        minLength: drivers * laps,
        maxLength: drivers * laps,
      }),
      withPositions: fc.boolean(),
      laps: fc.constant(laps),
    }),
  );

  test('fastest-lap counts sum to the counted laps; a fastest lap is never lap 1 where lap 1 is excluded', () => {
    fc.assert(
      fc.property(races, ({ format, statuses, completed, times, withPositions, laps }) => {
        const field: LapEntry[] = statuses.map((lapStatus, i) => ({ id: `D${i}`, lapStatus }));
        const records: LapRecord[] = [];
        field.forEach((entry, d) => {
          for (let n = 1; n <= (completed[d] ?? 0); n++) {
            const t = times[d * laps + n - 1];
            records.push(lap(entry.id, n, t === null || t === undefined ? null : t / 10, withPositions ? d + 1 : null));
          }
        });
        const stats = heatLapStatistics(format, field, records);
        const racing = new Set(field.filter((e) => e.lapStatus !== 'DNS').map((e) => e.id));
        const countedLaps = new Set(
          records.filter((r) => r.lapNo >= 2 && r.lapTime !== null && racing.has(r.entryId)).map((r) => r.lapNo),
        ).size;
        const sum = [...stats.values()].reduce((total, s) => total + (s.athleteFastestLapCount ?? 0), 0);
        assert.equal(sum, countedLaps);
        for (const [id, s] of stats) {
          if (format === 'supercross-laps') assert.notEqual(s.athleteFastestLapNo, 1);
          if (s.athleteLapsLed !== null) assert.ok(s.athleteLapsLed <= records.filter((r) => r.entryId === id).length);
          assert.equal(s.athleteFastestLapSeconds === null, s.athleteFastestLapNo === null);
        }
      }),
    );
  });
});
