import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import type { EventStatus } from '../../../src/domain/enumerations.ts';
import {
  type BracketGame,
  bracketProblems,
  bracketRoundName,
  type KnockoutBracket,
  knockoutBracket,
  MAX_BRACKET_ROUNDS,
} from '../../../src/domain/results/knockout-bracket.ts';
import type { MatchSide } from '../../../src/domain/results/match-score.ts';

function game(
  eventId: string,
  round: number,
  slot: number,
  homeTeamId: string | null,
  awayTeamId: string | null,
  status: EventStatus = 'UPCOMING',
  winner: MatchSide | null = null,
): BracketGame {
  return { eventId, round, slot, homeTeamId, awayTeamId, status, winner };
}

/** Each round as [home, away, winner] per slot, for compact comparisons. */
function teams(bracket: KnockoutBracket): Array<Array<[string | null, string | null, string | null]>> {
  return bracket.rounds.map((round) => round.slots.map((s) => [s.homeTeamId, s.awayTeamId, s.winnerTeamId]));
}

const QUARTERFINALS_SCHEDULED = [
  game('qf1', 1, 1, 'A', 'B'),
  game('qf2', 1, 2, 'C', 'D'),
  game('qf3', 1, 3, 'E', 'F'),
  game('qf4', 1, 4, 'G', 'H'),
];

const QUARTERFINALS_PLAYED = [
  game('qf1', 1, 1, 'A', 'B', 'COMPLETED', 'home'),
  game('qf2', 1, 2, 'C', 'D', 'COMPLETED', 'away'),
  game('qf3', 1, 3, 'E', 'F', 'COMPLETED', 'away'),
  game('qf4', 1, 4, 'G', 'H', 'COMPLETED', 'home'),
];

describe('knockoutBracket: an 8-team bracket as it fills in', () => {
  test('only the first round scheduled: every later slot is shown, empty', () => {
    const bracket = knockoutBracket(QUARTERFINALS_SCHEDULED);
    assert.deepEqual(
      bracket.rounds.map((r) => [r.roundNo, r.name, r.slots.length]),
      [
        [1, 'Quarterfinals', 4],
        [2, 'Semifinals', 2],
        [3, 'Final', 1],
      ],
    );
    assert.deepEqual(teams(bracket), [
      [
        ['A', 'B', null],
        ['C', 'D', null],
        ['E', 'F', null],
        ['G', 'H', null],
      ],
      [
        [null, null, null],
        [null, null, null],
      ],
      [[null, null, null]],
    ]);
    assert.deepEqual(bracket.rounds[1]?.slots[0], {
      slot: 1,
      eventId: null,
      homeTeamId: null,
      awayTeamId: null,
      winnerTeamId: null,
      status: null,
    });
    assert.equal(bracket.rounds[0]?.slots[2]?.eventId, 'qf3');
    assert.equal(bracket.rounds[0]?.slots[2]?.status, 'UPCOMING');
    assert.equal(bracket.championTeamId, null);
  });

  test('quarterfinals half done: each semifinal shows the one winner known so far', () => {
    const bracket = knockoutBracket([
      game('qf1', 1, 1, 'A', 'B', 'COMPLETED', 'home'),
      game('qf2', 1, 2, 'C', 'D', 'LIVE'),
      game('qf3', 1, 3, 'E', 'F', 'COMPLETED', 'away'),
      game('qf4', 1, 4, 'G', 'H', 'UPCOMING'),
    ]);
    assert.deepEqual(teams(bracket), [
      [
        ['A', 'B', 'A'],
        ['C', 'D', null],
        ['E', 'F', 'F'],
        ['G', 'H', null],
      ],
      [
        ['A', null, null],
        ['F', null, null],
      ],
      [[null, null, null]],
    ]);
    assert.equal(bracket.rounds[0]?.slots[1]?.status, 'LIVE');
  });

  test('the winner of slot 2s-1 is home in slot s, the winner of slot 2s away', () => {
    const bracket = knockoutBracket([
      game('qf1', 1, 1, 'A', 'B', 'UPCOMING'),
      game('qf2', 1, 2, 'C', 'D', 'COMPLETED', 'away'),
      game('qf3', 1, 3, 'E', 'F', 'UPCOMING'),
      game('qf4', 1, 4, 'G', 'H', 'COMPLETED', 'home'),
    ]);
    assert.deepEqual(teams(bracket)[1], [
      [null, 'D', null],
      [null, 'G', null],
    ]);
  });

  test('semifinal games scheduled: their own teams win over the feeders, missing sides fill in', () => {
    const bracket = knockoutBracket([
      ...QUARTERFINALS_PLAYED,
      // The operator seeded the first semifinal the other way round: their word stands.
      game('sf1', 2, 1, 'D', 'A', 'NEXT'),
      // The second names only its away team: home comes from its feeder.
      game('sf2', 2, 2, null, 'G', 'UPCOMING'),
    ]);
    assert.deepEqual(teams(bracket), [
      [
        ['A', 'B', 'A'],
        ['C', 'D', 'D'],
        ['E', 'F', 'F'],
        ['G', 'H', 'G'],
      ],
      [
        ['D', 'A', null],
        ['F', 'G', null],
      ],
      [[null, null, null]],
    ]);
    assert.deepEqual(
      bracket.rounds[1]?.slots.map((s) => [s.eventId, s.status]),
      [
        ['sf1', 'NEXT'],
        ['sf2', 'UPCOMING'],
      ],
    );
    assert.equal(bracket.championTeamId, null);
  });

  test('a game with no teams of its own shows the feeders', () => {
    const bracket = knockoutBracket([...QUARTERFINALS_PLAYED, game('sf1', 2, 1, null, null, 'UPCOMING')]);
    assert.deepEqual(teams(bracket)[1], [
      ['A', 'D', null],
      ['F', 'G', null],
    ]);
    assert.equal(bracket.rounds[1]?.slots[0]?.eventId, 'sf1');
  });

  test('final completed: the champion', () => {
    const bracket = knockoutBracket([
      ...QUARTERFINALS_PLAYED,
      game('sf1', 2, 1, 'A', 'D', 'COMPLETED', 'away'),
      game('sf2', 2, 2, 'F', 'G', 'COMPLETED', 'home'),
      game('final', 3, 1, 'D', 'F', 'COMPLETED', 'away'),
    ]);
    assert.deepEqual(teams(bracket).slice(1), [
      [
        ['A', 'D', 'D'],
        ['F', 'G', 'F'],
      ],
      [['D', 'F', 'F']],
    ]);
    assert.equal(bracket.championTeamId, 'F');
  });

  test('final completed without its own teams: the champion comes through the feeders', () => {
    const bracket = knockoutBracket([
      ...QUARTERFINALS_PLAYED,
      game('sf1', 2, 1, null, null, 'COMPLETED', 'away'),
      game('sf2', 2, 2, null, null, 'COMPLETED', 'home'),
      game('final', 3, 1, null, null, 'COMPLETED', 'home'),
    ]);
    assert.deepEqual(teams(bracket)[2], [['D', 'F', 'D']]);
    assert.equal(bracket.championTeamId, 'D');
  });

  test('final being played, or completed with no result yet: no champion', () => {
    const semis = [game('sf1', 2, 1, 'A', 'D', 'COMPLETED', 'away'), game('sf2', 2, 2, 'F', 'G', 'COMPLETED', 'home')];
    for (const [status, winner] of [
      ['LIVE', null],
      ['LIVE', 'home'],
      ['COMPLETED', null],
      ['POSTPONED', null],
      ['IN_WINDOW', null],
    ] as const) {
      const bracket = knockoutBracket([
        ...QUARTERFINALS_PLAYED,
        ...semis,
        game('final', 3, 1, 'D', 'F', status, winner),
      ]);
      assert.deepEqual(teams(bracket)[2], [['D', 'F', null]], status);
      assert.equal(bracket.championTeamId, null, status);
    }
  });
});

describe('knockoutBracket: other sizes and edge cases', () => {
  test('empty input', () => {
    assert.deepEqual(knockoutBracket([]), { rounds: [], championTeamId: null });
  });

  test('a 4-team bracket', () => {
    const bracket = knockoutBracket([
      game('sf1', 1, 1, 'A', 'B', 'COMPLETED', 'away'),
      game('sf2', 1, 2, 'C', 'D', 'COMPLETED', 'home'),
      game('final', 2, 1, null, null, 'COMPLETED', 'away'),
    ]);
    assert.deepEqual(
      bracket.rounds.map((r) => r.name),
      ['Semifinals', 'Final'],
    );
    assert.deepEqual(teams(bracket), [
      [
        ['A', 'B', 'B'],
        ['C', 'D', 'C'],
      ],
      [['B', 'C', 'C']],
    ]);
    assert.equal(bracket.championTeamId, 'C');
  });

  test('a 16-team bracket, first round under way', () => {
    const letters = 'ABCDEFGHIJKLMNOP';
    const games = Array.from({ length: 8 }, (_, i) =>
      game(
        `r16-${i + 1}`,
        1,
        i + 1,
        letters[2 * i] ?? null,
        letters[2 * i + 1] ?? null,
        i < 3 ? 'COMPLETED' : 'UPCOMING',
        i % 2 === 0 ? 'home' : 'away',
      ),
    );
    const bracket = knockoutBracket(games);
    assert.deepEqual(
      bracket.rounds.map((r) => [r.name, r.slots.length]),
      [
        ['Round of 16', 8],
        ['Quarterfinals', 4],
        ['Semifinals', 2],
        ['Final', 1],
      ],
    );
    // Completed: A (home of 1), D (away of 2), E (home of 3); the rest only scheduled.
    assert.deepEqual(teams(bracket)[1], [
      ['A', 'D', null],
      ['E', null, null],
      [null, null, null],
      [null, null, null],
    ]);
    assert.equal(bracket.championTeamId, null);
  });

  test('the size fits every game: a lone late slot in the first round makes a 16-team bracket', () => {
    const bracket = knockoutBracket([game('g', 1, 5, 'A', 'B')]);
    assert.deepEqual(
      bracket.rounds.map((r) => r.slots.length),
      [8, 4, 2, 1],
    );
    assert.equal(bracket.rounds[0]?.slots[4]?.eventId, 'g');
  });

  test('a lone game is a final; the second round alone makes a 4-team bracket', () => {
    const single = knockoutBracket([game('f', 1, 1, 'A', 'B', 'COMPLETED', 'home')]);
    assert.deepEqual(
      single.rounds.map((r) => r.name),
      ['Final'],
    );
    assert.equal(single.championTeamId, 'A');
    const late = knockoutBracket([game('f', 2, 1, 'A', 'B')]);
    assert.deepEqual(
      late.rounds.map((r) => [r.name, r.slots.length]),
      [
        ['Semifinals', 2],
        ['Final', 1],
      ],
    );
  });

  test('a cancelled game advances nobody, even with a winner stored', () => {
    const bracket = knockoutBracket([
      game('qf1', 1, 1, 'A', 'B', 'CANCELLED', 'home'),
      game('qf2', 1, 2, 'C', 'D', 'COMPLETED', 'home'),
      game('qf3', 1, 3, 'E', 'F', 'CANCELLED'),
      game('qf4', 1, 4, 'G', 'H', 'COMPLETED', 'away'),
    ]);
    assert.deepEqual(
      teams(bracket)[0]?.map((s) => s[2]),
      [null, 'C', null, 'H'],
    );
    assert.deepEqual(teams(bracket)[1], [
      [null, 'C', null],
      [null, 'H', null],
    ]);
    assert.equal(bracket.rounds[0]?.slots[0]?.status, 'CANCELLED');
  });

  test('a cancelled final crowns nobody', () => {
    const bracket = knockoutBracket([
      game('sf1', 1, 1, 'A', 'B', 'COMPLETED', 'home'),
      game('f', 2, 1, 'A', 'C', 'CANCELLED', 'home'),
    ]);
    assert.equal(bracket.championTeamId, null);
  });

  test('a completed game whose winning side is unknown advances nobody', () => {
    // The semifinal is recorded as won by home, but neither the game nor its feeder names home.
    const bracket = knockoutBracket([
      game('sf1', 1, 1, 'A', 'B', 'LIVE'),
      game('sf2', 1, 2, 'C', 'D', 'COMPLETED', 'home'),
      game('final', 2, 1, null, null, 'COMPLETED', 'home'),
    ]);
    assert.deepEqual(teams(bracket)[1], [[null, 'C', null]]);
    assert.equal(bracket.championTeamId, null);
    const awayWins = knockoutBracket([
      game('sf1', 1, 1, 'A', 'B', 'LIVE'),
      game('sf2', 1, 2, 'C', 'D', 'COMPLETED', 'home'),
      game('final', 2, 1, null, null, 'COMPLETED', 'away'),
    ]);
    assert.equal(awayWins.championTeamId, 'C');
  });

  test('unplaceable games are left out; of two games in one slot the first is shown', () => {
    const bracket = knockoutBracket([
      game('a', 1, 1, 'A', 'B'),
      game('dup', 1, 1, 'X', 'Y'),
      game('zero-round', 0, 1, 'X', 'Y'),
      game('zero-slot', 1, 0, 'X', 'Y'),
      game('half', 1.5, 1, 'X', 'Y'),
      game('nan', 1, Number.NaN, 'X', 'Y'),
      game('huge', 1, 2 ** 40, 'X', 'Y'),
      game('b', 1, 2, 'C', 'D'),
    ]);
    assert.deepEqual(teams(bracket), [
      [
        ['A', 'B', null],
        ['C', 'D', null],
      ],
      [[null, null, null]],
    ]);
    assert.equal(bracket.rounds[0]?.slots[0]?.eventId, 'a');
  });
});

describe('bracketRoundName', () => {
  test('names rounds by their distance from the final', () => {
    const table: Array<[number, number, string]> = [
      [1, 1, 'Final'],
      [1, 2, 'Semifinals'],
      [2, 2, 'Final'],
      [1, 3, 'Quarterfinals'],
      [2, 3, 'Semifinals'],
      [3, 3, 'Final'],
      [1, 4, 'Round of 16'],
      [2, 4, 'Quarterfinals'],
      [1, 5, 'Round of 32'],
      [2, 5, 'Round of 16'],
      [1, 6, 'Round of 64'],
      [1, 7, 'Round of 128'],
      [0, 3, 'Round 0'],
      [4, 3, 'Round 4'],
    ];
    for (const [roundNo, rounds, expected] of table)
      assert.equal(bracketRoundName(roundNo, rounds), expected, `${roundNo} of ${rounds}`);
  });
});

describe('bracketProblems', () => {
  const at = (eventId: string, round: number, slot: number) => ({ eventId, round, slot });

  test('a sound bracket, and an empty one, have no problems', () => {
    assert.deepEqual(bracketProblems([]), []);
    assert.deepEqual(
      bracketProblems([
        ...QUARTERFINALS_PLAYED,
        game('sf1', 2, 1, 'A', 'D'),
        game('sf2', 2, 2, 'F', 'G'),
        game('f', 3, 1, null, null),
      ]),
      [],
    );
    // A later round alone, or the first round alone, sets no limit to check against.
    assert.deepEqual(bracketProblems([at('x', 3, 7)]), []);
    assert.deepEqual(bracketProblems([at('x', 1, 13)]), []);
  });

  test('each problem, with its event and field', () => {
    const problems = bracketProblems([
      at('qf1', 1, 1),
      at('qf2', 1, 2),
      at('qf3', 1, 3),
      at('qf4', 1, 4),
      at('qf1-again', 1, 1),
      at('round-zero', 0, 1),
      at('round-negative', -2, 1),
      at('round-fraction', 2.5, 1),
      at('slot-zero', 1, 0),
      at('slot-fraction', 2, 1.5),
      at('both-bad', 0, 0),
      at('sf-beyond', 2, 3),
      at('final-beyond', 3, 2),
      at('sf-ok', 2, 2),
      at('huge-slot', 1, 2 ** 20),
      at('huge-round', MAX_BRACKET_ROUNDS + 1, 1),
    ]);
    assert.deepEqual(
      problems.map((p) => [p.eventId, p.field]),
      [
        ['round-zero', 'bracketRound'],
        ['round-negative', 'bracketRound'],
        ['round-fraction', 'bracketRound'],
        ['slot-zero', 'bracketSlot'],
        ['slot-fraction', 'bracketSlot'],
        ['both-bad', 'bracketRound'],
        ['both-bad', 'bracketSlot'],
        ['huge-slot', 'bracketSlot'],
        ['huge-round', 'bracketRound'],
        ['qf1-again', 'bracketSlot'],
        ['sf-beyond', 'bracketSlot'],
        ['final-beyond', 'bracketSlot'],
      ],
    );
    const message = (eventId: string) => problems.find((p) => p.eventId === eventId)?.message;
    assert.equal(message('qf1-again'), 'round 1 slot 1 is already taken by event qf1');
    assert.equal(message('sf-beyond'), "bracketSlot 3 is beyond round 2's 2 slots (a 8-team bracket)");
    assert.equal(message('final-beyond'), "bracketSlot 2 is beyond round 3's 1 slot (a 8-team bracket)");
    assert.match(message('round-zero') ?? '', /at least 1/);
    assert.match(message('huge-slot') ?? '', /largest bracket/);
  });

  test('a later round present grows the field the first round sets', () => {
    // First round slots 1-2 alone would make a 4-team bracket; a third round makes it 8.
    assert.deepEqual(bracketProblems([at('a', 1, 1), at('b', 1, 2), at('sf', 2, 2), at('f', 3, 1)]), []);
    assert.deepEqual(
      bracketProblems([at('a', 1, 1), at('b', 1, 2), at('sf', 2, 3), at('f', 3, 1)]).map((p) => p.eventId),
      ['sf'],
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Properties

const STATUSES = ['COMPLETED', 'LIVE', 'UPCOMING', 'NEXT', 'CANCELLED', 'POSTPONED', 'IN_WINDOW'] as const;
const team = fc.option(fc.constantFrom('A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'), { nil: null });
const side = fc.option(fc.constantFrom<MatchSide>('home', 'away'), { nil: null });

/** Any games at all, teams and results included, placed in rounds 1-5 and slots 1-16 (duplicates possible). */
const anyGames = fc.array(
  fc.record({
    eventId: fc.uuid(),
    round: fc.integer({ min: 1, max: 5 }),
    slot: fc.integer({ min: 1, max: 16 }),
    homeTeamId: team,
    awayTeamId: team,
    status: fc.constantFrom(...STATUSES),
    winner: side,
  }),
  { maxLength: 40 },
);

/**
 * A real tournament of 2^R distinct teams played out in full, then shown as the feed would at some
 * moment: each game present or not, naming its teams or not, with any status, and its result once
 * COMPLETED (or no result yet). Stored teams are always the teams that truly played.
 */
const tournament = fc.integer({ min: 1, max: 5 }).chain((rounds) =>
  fc.record({
    rounds: fc.constant(rounds),
    firstRoundWhole: fc.boolean(),
    choices: fc.array(
      fc.record({
        present: fc.boolean(),
        homeWins: fc.boolean(),
        showHome: fc.boolean(),
        showAway: fc.boolean(),
        resultKnown: fc.boolean(),
        status: fc.constantFrom(...STATUSES),
      }),
      { minLength: 2 ** rounds - 1, maxLength: 2 ** rounds - 1 },
    ),
  }),
);

interface GameChoice {
  present: boolean;
  homeWins: boolean;
  showHome: boolean;
  showAway: boolean;
  resultKnown: boolean;
  status: EventStatus;
}

/** The feed's games for a tournament whose games, in round order, went as `choices` say. */
function playOut({
  rounds,
  firstRoundWhole,
  choices,
}: {
  rounds: number;
  firstRoundWhole: boolean;
  choices: readonly GameChoice[];
}): BracketGame[] {
  const games: BracketGame[] = [];
  let field = Array.from({ length: 2 ** rounds }, (_, i) => `T${i + 1}`);
  let next = 0;
  for (let round = 1; round <= rounds; round++) {
    const winners: string[] = [];
    for (let slot = 1; slot <= field.length / 2; slot++) {
      const choice = choices[next++];
      const home = field[2 * slot - 2];
      const away = field[2 * slot - 1];
      assert.ok(choice && home && away);
      winners.push(choice.homeWins ? home : away);
      if (!choice.present && !(round === 1 && firstRoundWhole)) continue;
      const winner: MatchSide | null =
        choice.status === 'COMPLETED' && choice.resultKnown ? (choice.homeWins ? 'home' : 'away') : null;
      games.push(
        game(
          `e${round}-${slot}`,
          round,
          slot,
          choice.showHome ? home : null,
          choice.showAway ? away : null,
          choice.status,
          winner,
        ),
      );
    }
    field = winners;
  }
  return games;
}

/** The game knockoutBracket shows in a slot: the first placeable one given. */
function shownGame(games: readonly BracketGame[], round: number, slot: number): BracketGame | undefined {
  return games.find((g) => g.round === round && g.slot === slot);
}

describe('knockoutBracket properties', () => {
  test('every round r of an R-round bracket has 2^(R-r) slots, numbered 1.., and every game fits', () => {
    fc.assert(
      fc.property(anyGames, (games) => {
        const bracket = knockoutBracket(games);
        const rounds = bracket.rounds.length;
        assert.equal(
          rounds,
          games.length === 0 ? 0 : Math.max(...games.map((g) => g.round + Math.ceil(Math.log2(g.slot)))),
        );
        bracket.rounds.forEach((round, i) => {
          assert.equal(round.roundNo, i + 1);
          assert.equal(round.name, bracketRoundName(i + 1, rounds));
          assert.deepEqual(
            round.slots.map((s) => s.slot),
            Array.from({ length: 2 ** (rounds - round.roundNo) }, (_, j) => j + 1),
          );
        });
        for (const g of games) {
          const shown = shownGame(games, g.round, g.slot);
          assert.equal(bracket.rounds[g.round - 1]?.slots[g.slot - 1]?.eventId, shown?.eventId);
        }
      }),
    );
  });

  test('a team not named by its own game came out of the feeding slot as its winner', () => {
    fc.assert(
      fc.property(fc.oneof(anyGames, tournament.map(playOut)), (games) => {
        const bracket = knockoutBracket(games);
        for (const round of bracket.rounds) {
          const previous = bracket.rounds[round.roundNo - 2];
          const winners = new Set(previous?.slots.map((s) => s.winnerTeamId).filter((t) => t !== null));
          for (const s of round.slots) {
            const own = shownGame(games, round.roundNo, s.slot);
            const feeders = [
              previous?.slots[2 * s.slot - 2]?.winnerTeamId ?? null,
              previous?.slots[2 * s.slot - 1]?.winnerTeamId ?? null,
            ];
            const sides = [
              [s.homeTeamId, own?.homeTeamId ?? null, feeders[0]],
              [s.awayTeamId, own?.awayTeamId ?? null, feeders[1]],
            ] as const;
            for (const [shown, stored, feeder] of sides) {
              if (stored !== null) {
                assert.equal(shown, stored, 'the game names its own team');
              } else {
                assert.equal(shown, feeder);
                if (shown !== null) assert.ok(winners.has(shown), 'came out of the previous round as a winner');
              }
            }
            if (own === undefined) assert.ok(s.eventId === null && s.status === null);
          }
        }
      }),
    );
  });

  test('a team appears at most once per round in a real tournament at any moment', () => {
    fc.assert(
      fc.property(tournament, (t) => {
        const bracket = knockoutBracket(playOut(t));
        for (const round of bracket.rounds) {
          const named = round.slots.flatMap((s) => [s.homeTeamId, s.awayTeamId]).filter((x) => x !== null);
          assert.equal(new Set(named).size, named.length, `round ${round.roundNo}`);
        }
      }),
    );
  });

  test('a slot advances a team exactly when its game is COMPLETED with a winner whose team is known', () => {
    fc.assert(
      fc.property(fc.oneof(anyGames, tournament.map(playOut)), (games) => {
        const bracket = knockoutBracket(games);
        for (const round of bracket.rounds) {
          for (const s of round.slots) {
            const own = shownGame(games, round.roundNo, s.slot);
            const expected =
              own?.status === 'COMPLETED' && own.winner !== null
                ? own.winner === 'home'
                  ? s.homeTeamId
                  : s.awayTeamId
                : null;
            assert.equal(s.winnerTeamId, expected);
          }
        }
      }),
    );
  });

  test('the champion is set exactly when the final is COMPLETED with a winner and that side is known', () => {
    fc.assert(
      fc.property(fc.oneof(anyGames, tournament.map(playOut)), (games) => {
        const bracket = knockoutBracket(games);
        const finalRound = bracket.rounds.at(-1);
        const finalSlot = finalRound?.slots[0];
        const finalGame = finalRound ? shownGame(games, finalRound.roundNo, 1) : undefined;
        const sideTeam = finalGame?.winner === 'home' ? finalSlot?.homeTeamId : finalSlot?.awayTeamId;
        const crowned =
          finalGame?.status === 'COMPLETED' && finalGame.winner !== null && sideTeam !== null && sideTeam !== undefined;
        assert.equal(bracket.championTeamId !== null, crowned);
        if (crowned) assert.equal(bracket.championTeamId, sideTeam);
        assert.equal(finalRound?.slots.length ?? 1, 1);
      }),
    );
  });

  test('a fully played and published tournament crowns its true champion', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.array(fc.boolean(), { minLength: 63, maxLength: 63 }),
        fc.boolean(),
        (rounds, homeWins, showTeams) => {
          // The first round names its teams; later rounds do so or leave it to the feeders.
          const firstRoundGames = 2 ** (rounds - 1);
          const choices = homeWins.slice(0, 2 ** rounds - 1).map((h, k): GameChoice => {
            const show = showTeams || k < firstRoundGames;
            return {
              present: true,
              homeWins: h,
              showHome: show,
              showAway: show,
              resultKnown: true,
              status: 'COMPLETED',
            };
          });
          // Play it out by hand: game k (in round order) is won by home when homeWins[k].
          let field = Array.from({ length: 2 ** rounds }, (_, i) => `T${i + 1}`);
          let k = 0;
          while (field.length > 1) {
            const winners: string[] = [];
            for (let i = 0; i < field.length; i += 2) winners.push((homeWins[k++] ? field[i] : field[i + 1]) ?? '');
            field = winners;
          }
          const bracket = knockoutBracket(playOut({ rounds, firstRoundWhole: true, choices }));
          assert.equal(bracket.rounds.length, rounds);
          assert.equal(bracket.championTeamId, field[0]);
        },
      ),
    );
  });
});

describe('bracketProblems properties', () => {
  test('a real tournament with its first round published whole (or not at all) has no problems', () => {
    fc.assert(
      fc.property(tournament, (t) => {
        const games = playOut(t);
        const firstRound = games.filter((g) => g.round === 1).length;
        fc.pre(firstRound === 0 || firstRound === 2 ** (t.rounds - 1));
        assert.deepEqual(bracketProblems(games), []);
      }),
    );
  });

  test('a game repeated in its slot is reported once per repeat, by its event', () => {
    fc.assert(
      fc.property(tournament, fc.nat(), (t, pick) => {
        const games = playOut({ ...t, firstRoundWhole: true });
        const original = games[pick % games.length];
        assert.ok(original);
        const problems = bracketProblems([...games, { ...original, eventId: 'repeat' }]);
        assert.deepEqual(problems, [
          {
            eventId: 'repeat',
            field: 'bracketSlot',
            message: `round ${original.round} slot ${original.slot} is already taken by event ${original.eventId}`,
          },
        ]);
      }),
    );
  });
});
