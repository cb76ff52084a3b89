import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { ODD_TYPES } from '../../../src/domain/enumerations.ts';
import {
  heatText,
  type LabelMarket,
  type LabelOutcome,
  outcomeLabel,
} from '../../../src/domain/markets/outcome-label.ts';

const HEAT_3 = { heatName: null, heatNo: 3 };
const FINAL = { heatName: 'Main Event', heatNo: 1 };

describe('outcomeLabel', () => {
  test('every odd type reads as its own bet', () => {
    const table: Array<[string, LabelMarket, LabelOutcome, string]> = [
      ['event winner', { oddType: 'eventWinner' }, { athlete: 'Eli Tomac' }, 'Eli Tomac to win the event'],
      ['winner of a heat, by number', { oddType: 'heatWinner', heat: HEAT_3 }, { athlete: 'A' }, 'A to win heat 3'],
      [
        'winner of a heat, by its name',
        { oddType: 'heatWinner', heat: FINAL },
        { athlete: 'A' },
        'A to win Main Event',
      ],
      ['second place', { oddType: 'secondPlace' }, { athlete: 'A' }, 'A to finish 2nd'],
      ['fastest lap of the event', { oddType: 'fastestLap' }, { athlete: 'A' }, 'A fastest lap'],
      ['fastest lap of a heat', { oddType: 'fastestLap', heat: HEAT_3 }, { athlete: 'A' }, 'A fastest lap in heat 3'],
      ['holeshot', { oddType: 'holeShot', heat: FINAL }, { athlete: 'A' }, 'A holeshot in Main Event'],
      ['podium', { oddType: 'podiums' }, { athlete: 'A' }, 'A to make the podium'],
      ['shows, its places', { oddType: 'shows', places: 4 }, { athlete: 'A' }, 'A to show (top 4)'],
      ['shows, 3 by default', { oddType: 'shows' }, { athlete: 'A' }, 'A to show (top 3)'],
      ['top 3', { oddType: 'raceTop3' }, { athlete: 'A' }, 'A top 3'],
      ['top 5', { oddType: 'raceTop5' }, { athlete: 'A' }, 'A top 5'],
      ['top 10', { oddType: 'raceTop10' }, { athlete: 'A' }, 'A top 10'],
      ['exacta', { oddType: 'eventExacta', exactasType: 2 }, { athletes: ['A', 'B'] }, 'Exacta: A 1st, B 2nd'],
      [
        'trifecta',
        { oddType: 'eventExacta', exactasType: 3 },
        { athletes: ['A', 'B', 'C'] },
        'Trifecta: A 1st, B 2nd, C 3rd',
      ],
      [
        'superfecta of a heat',
        { oddType: 'heatExacta', exactasType: 4, heat: HEAT_3 },
        { athletes: ['A', 'B', 'C', 'D'] },
        'Superfecta in heat 3: A 1st, B 2nd, C 3rd, D 4th',
      ],
      ['head-to-head', { oddType: 'headToHead' }, { athlete: 'A', opponent: 'B' }, 'A to beat B'],
      [
        'over/under finishing position',
        { oddType: 'overUnder', overUnderSubMarketType: 'finishingPosition', line: 3.5, subjects: ['A'] },
        { side: 'UNDER' },
        'A finishing position under 3.5',
      ],
      [
        'over/under points in a heat',
        { oddType: 'overUnder', overUnderSubMarketType: 'points', line: 14.5, subjects: ['A'], heat: HEAT_3 },
        { side: 'OVER' },
        'A points over 14.5 in heat 3',
      ],
      [
        'over/under gap to the leaders',
        { oddType: 'overUnder', overUnderSubMarketType: 'gapToLeaders', line: 2, subjects: ['A'], heat: HEAT_3 },
        { side: 'OVER' },
        'A gap to the leaders over 2 in heat 3',
      ],
      [
        'multi over/under: the measures added up',
        { oddType: 'multiOverUnder', overUnderSubMarketType: 'finishingPosition', line: 10.5, subjects: ['A', 'B'] },
        { side: 'UNDER' },
        'A + B total finishing position under 10.5',
      ],
      ['dream team, named', { oddType: 'dreamTeam' }, { name: 'Blue', athletes: ['A', 'B'] }, 'Dream team Blue: A, B'],
      ['dream team, unnamed', { oddType: 'dreamTeam' }, { athletes: ['A', 'B'] }, 'Dream team A, B'],
      [
        'moneyline, the team named',
        { oddType: 'teamMarkets', teamMarketType: 'moneyline' },
        { side: 'HOME', team: 'San Diego Sockers' },
        'San Diego Sockers to win',
      ],
      ['moneyline, the draw', { oddType: 'teamMarkets', teamMarketType: 'moneyline' }, { side: 'DRAW' }, 'Draw'],
      [
        'moneyline of a period, no team known',
        { oddType: 'teamMarkets', teamMarketType: 'moneyline', period: 'End 3' },
        { side: 'AWAY' },
        'End 3: Away to win',
      ],
      [
        'spread, home handicap',
        { oddType: 'teamMarkets', teamMarketType: 'spread', line: -1.5 },
        { side: 'HOME', team: 'Sockers' },
        'Sockers -1.5',
      ],
      [
        'spread, the away side takes the other handicap',
        { oddType: 'teamMarkets', teamMarketType: 'spread', line: -1.5 },
        { side: 'AWAY', team: 'Wave' },
        'Wave +1.5',
      ],
      [
        'total of a period',
        { oddType: 'teamMarkets', teamMarketType: 'total', line: 9.5, period: '2nd Quarter' },
        { side: 'OVER' },
        '2nd Quarter: Total over 9.5',
      ],
      ['untyped team market: the outcome as named', { oddType: 'teamMarkets' }, { name: 'Sockers' }, 'Sockers'],
      [
        'prop bet, a question',
        { oddType: 'propBets', proposition: 'Will anyone crash?' },
        { name: 'Yes' },
        'Will anyone crash? Yes',
      ],
      [
        'prop bet about an athlete',
        { oddType: 'propBets', proposition: 'Podium finish' },
        { name: 'No', athlete: 'A' },
        'Podium finish (A): No',
      ],
    ];
    for (const [name, market, outcome, expected] of table) assert.equal(outcomeLabel(market, outcome), expected, name);
    const covered = new Set(table.map(([, market]) => market.oddType));
    assert.deepEqual(
      ODD_TYPES.filter((t) => !covered.has(t)),
      [],
      'every odd type has a row',
    );
  });

  test('a heat as published: its name, else its number', () => {
    assert.equal(heatText({ heatName: 'Heat 3', heatNo: 3 }), 'Heat 3');
    assert.equal(heatText({ heatName: '  ', heatNo: 2 }), 'heat 2');
    assert.equal(heatText({ heatName: null, heatNo: null }), 'the heat');
  });

  const name = fc.string({ minLength: 1, maxLength: 12 }).filter((s) => s.trim() === s && s.length > 0);
  const heat = fc.record({ heatName: fc.option(name, { nil: null }), heatNo: fc.integer({ min: 1, max: 20 }) });

  test('property: one rider, four bets: event winner, heat winner, fastest lap and holeshot never share a label', () => {
    fc.assert(
      fc.property(name, heat, (athlete, h) => {
        const labels = [
          outcomeLabel({ oddType: 'eventWinner' }, { athlete }),
          outcomeLabel({ oddType: 'heatWinner', heat: h }, { athlete }),
          outcomeLabel({ oddType: 'fastestLap' }, { athlete }),
          outcomeLabel({ oddType: 'holeShot', heat: h }, { athlete }),
          // And every other bet on the rider alone.
          ...(['secondPlace', 'shows', 'podiums', 'raceTop3', 'raceTop5', 'raceTop10'] as const).map((oddType) =>
            outcomeLabel({ oddType }, { athlete }),
          ),
        ];
        assert.equal(new Set(labels).size, labels.length, labels.join(' | '));
        for (const label of labels) assert.ok(label.includes(athlete));
      }),
    );
  });

  test('property: within one market, outcomes of different athletes read differently', () => {
    const athleteTypes = ODD_TYPES.filter(
      (t) =>
        !['eventExacta', 'heatExacta', 'overUnder', 'multiOverUnder', 'dreamTeam', 'teamMarkets', 'propBets'].includes(
          t,
        ),
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...athleteTypes),
        fc.uniqueArray(name, { minLength: 2, maxLength: 6 }),
        heat,
        (oddType, athletes, h) => {
          const market: LabelMarket = { oddType, heat: h };
          const labels = athletes.map((athlete) => outcomeLabel(market, { athlete, opponent: 'Other' }));
          assert.equal(new Set(labels).size, labels.length);
        },
      ),
    );
  });
});
