import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { COMPETITION_KEYS, COMPETITIONS, findCompetition, RESULTS_FORMATS } from '../../src/domain/competitions.ts';
import { ODD_TYPES } from '../../src/domain/enumerations.ts';

const SPEC_KEYS =
  'wsl, sls, spr, masl, pbr, bkfc, f1, motocrs, fdrift, jaialai, gsoc, motoamerica, byb, powerslap, usac, nhra, sprmtcrs, hlrs, xgame, worldoutlaws, dgpt, athletesunlimited, lux, raf, nll, mltt, spectation, ifl, 3ice, swimming'.split(
    ', ',
  );
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
