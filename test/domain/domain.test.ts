import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { COMPETITIONS, COMPETITION_KEYS, RESULTS_FORMATS, findCompetition } from '../../src/domain/competitions.ts';
import { laterOf, parseDateParam } from '../../src/domain/dates.ts';
import { ODD_TYPES } from '../../src/domain/enumerations.ts';
import { americanToDecimal, decimalToAmerican, decimalToProbability, probabilityToDecimal } from '../../src/domain/odds-format.ts';
import { formatPublicId, parsePublicId } from '../../src/domain/public-id.ts';

const SPEC_KEYS =
  'wsl, sls, spr, masl, pbr, bkfc, f1, motocrs, fdrift, jaialai, gsoc, motoamerica, byb, powerslap, usac, nhra, sprmtcrs, hlrs, xgame, worldoutlaws, dgpt, athletesunlimited, lux, raf, nll, mltt, spectation, ifl, 3ice, swimming'.split(', ');

describe('sport catalogue', () => {
  test('holds exactly the 30 competition keys of the specification, in its order', () => {
    assert.deepEqual(COMPETITION_KEYS, SPEC_KEYS);
  });

  test('reference ids are unique, every market is an odd type, every format is known', () => {
    assert.equal(new Set(COMPETITIONS.map((c) => c.referenceId)).size, 30);
    for (const c of COMPETITIONS) {
      assert.ok(c.supportedMarkets.length > 0, c.key);
      assert.equal(new Set(c.supportedMarkets).size, c.supportedMarkets.length, `${c.key} repeats a market`);
      for (const m of c.supportedMarkets) assert.ok((ODD_TYPES as readonly string[]).includes(m), `${c.key}: ${m}`);
      assert.ok(c.resultsFormat in RESULTS_FORMATS, c.key);
    }
  });

  test('reads the keys as the design says', () => {
    const table: Array<[string, string, string]> = [
      ['wsl', 'surfing', 'judged-heat'],
      ['sls', 'skateboarding', 'skateboarding'],
      ['spr', 'supercross', 'supercross-laps'],
      ['motocrs', 'motocross', 'supercross-laps'],
      ['sprmtcrs', 'motocross', 'supercross-laps'],
      ['hlrs', 'sprint-car-racing', 'sprint-laps'],
      ['pbr', 'bull-riding', 'bull-riding'],
      ['bkfc', 'bare-knuckle-boxing', 'combat'],
      ['byb', 'bare-knuckle-boxing', 'combat'],
      ['powerslap', 'slap-fighting', 'combat'],
      ['lux', 'mma', 'combat'],
      ['raf', 'freestyle-wrestling', 'combat'],
      ['fdrift', 'drifting', 'drift-battle'],
      ['nhra', 'drag-racing', 'drag-pairing'],
      ['gsoc', 'curling', 'curling'],
      ['mltt', 'table-tennis', 'table-tennis'],
      ['nll', 'box-lacrosse', 'box-lacrosse'],
      ['3ice', 'three-on-three-hockey', 'three-ice'],
      ['jaialai', 'jai-alai', 'jai-alai'],
    ];
    for (const [key, sportKey, format] of table) {
      assert.equal(findCompetition(key)?.sportKey, sportKey, key);
      assert.equal(findCompetition(key)?.resultsFormat, format, key);
    }
    assert.equal(findCompetition('nba'), undefined);
  });
});

describe('public ids', () => {
  const uuid = '0f8fad5b-d9cb-469f-a165-70867728950e';
  test('reads prefixed and bare ids and refuses everything else', () => {
    const table: Array<[string, ReturnType<typeof parsePublicId>]> = [
      [`wsl:${uuid}`, { competition: 'wsl', uuid }],
      [`3ice:${uuid.toUpperCase()}`, { competition: '3ice', uuid }],
      [uuid, { competition: null, uuid }],
      [`nba:${uuid}`, null],
      ['wsl:not-a-uuid', null],
      [`wsl:${uuid}:x`, null],
      ['', null],
      [`:${uuid}`, null],
    ];
    for (const [input, expected] of table) assert.deepEqual(parsePublicId(input), expected, input);
  });

  test('format then parse gives back the parts', () => {
    fc.assert(
      fc.property(fc.constantFrom(...COMPETITION_KEYS), fc.uuid(), (key, id) => {
        assert.deepEqual(parsePublicId(formatPublicId(key, id)), { competition: key, uuid: id.toLowerCase() });
      }),
    );
  });
});

describe('date parameters', () => {
  test('accept a calendar date or a zoned date-time, nothing else', () => {
    const table: Array<[string, string | null, string | null]> = [
      ['2026-02-28', '2026-02-28T00:00:00.000Z', '2026-03-01T00:00:00.000Z'],
      ['2024-02-29', '2024-02-29T00:00:00.000Z', '2024-03-01T00:00:00.000Z'],
      ['2026-02-29', null, null],
      ['2026-13-01', null, null],
      ['2026-04-01T10:00:00Z', '2026-04-01T10:00:00.000Z', '2026-04-01T10:00:00.001Z'],
      ['2026-04-01T10:00:00+02:00', '2026-04-01T08:00:00.000Z', '2026-04-01T08:00:00.001Z'],
      ['2026-04-01T10:00', null, null],
      ['yesterday', null, null],
      ['', null, null],
    ];
    for (const [input, start, end] of table) {
      const bound = parseDateParam(input);
      assert.equal(bound?.start.toISOString() ?? null, start, input);
      assert.equal(bound?.endExclusive.toISOString() ?? null, end, input);
    }
  });

  test('laterOf is never earlier than either input', () => {
    fc.assert(
      fc.property(fc.option(fc.date({ noInvalidDate: true })), fc.option(fc.date({ noInvalidDate: true })), (a, b) => {
        const later = laterOf(a?.toISOString(), b?.toISOString());
        for (const d of [a, b]) if (d) assert.ok(Date.parse(later as string) >= d.getTime());
        if (!a && !b) assert.equal(later, null);
      }),
    );
  });
});

describe('odds formats', () => {
  test('convert as sportsbooks do', () => {
    const table: Array<[number, number]> = [
      [2, 100],
      [3.5, 250],
      [1.5, -200],
      [1.9091, -110],
      [11, 1000],
    ];
    for (const [decimal, american] of table) {
      assert.equal(decimalToAmerican(decimal), american, String(decimal));
      assert.ok(Math.abs(americanToDecimal(american) - decimal) < 0.0001, String(american));
    }
    assert.equal(decimalToProbability(4), 25);
    assert.equal(probabilityToDecimal(25), 4);
    assert.throws(() => decimalToAmerican(1));
    assert.throws(() => americanToDecimal(50));
    assert.throws(() => probabilityToDecimal(0));
  });

  test('American and decimal odds round-trip within rounding', () => {
    fc.assert(
      fc.property(fc.double({ min: 1.01, max: 1000, noNaN: true }), (decimal) => {
        const back = americanToDecimal(decimalToAmerican(decimal));
        // American odds are whole numbers: the round trip is exact to within one American point.
        const slack = decimal >= 2 ? 0.01 : (decimal - 1) ** 2 / 100 + 0.0001;
        assert.ok(Math.abs(back - decimal) <= slack + 1e-9, `${decimal} -> ${back}`);
      }),
    );
  });
});
