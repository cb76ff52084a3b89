import type { EventStatus } from '../enumerations.ts';
import type { MatchSide } from './match-score.ts';

/**
 * A single-elimination knockout bracket (the 3-on-3 hockey tour year ends with one). Games of the
 * bracket carry `bracketRound` (1 = first round) and `bracketSlot` (1-based position in the round).
 * The winners of slots 2s-1 and 2s of round r meet in slot s of round r+1: the winner of slot 2s-1
 * is the home team there, the winner of slot 2s the away team.
 *
 * Rounds fill in as winners advance: the published bracket shows every slot of every round, even
 * before its game exists. A slot's teams are the game's own teams where the game names them (the
 * operator's word), otherwise the winners of its two feeding slots as far as they are known.
 */

export interface BracketGame {
  eventId: string;
  /** 1-based. */
  round: number;
  /** 1-based position in the round. */
  slot: number;
  homeTeamId: string | null;
  awayTeamId: string | null;
  status: EventStatus;
  /** The winning side once COMPLETED (null for no result yet). */
  winner: MatchSide | null;
}

export interface BracketSlot {
  slot: number;
  eventId: string | null;
  homeTeamId: string | null;
  awayTeamId: string | null;
  /** The team that advanced from this slot: set once the game is COMPLETED with a winner and the winning side's team is known. */
  winnerTeamId: string | null;
  /** The game's status, null when no game yet. */
  status: EventStatus | null;
}

export interface BracketRound {
  roundNo: number;
  name: string;
  slots: BracketSlot[];
}

export interface KnockoutBracket {
  rounds: BracketRound[];
  championTeamId: string | null;
}

export interface BracketProblem {
  eventId: string;
  field: 'bracketRound' | 'bracketSlot';
  message: string;
}

/**
 * The most rounds a bracket may have (4,096 teams). A game that would need more (a slot number in
 * the millions, say) is left out of the bracket and reported by bracketProblems, so that one bad
 * feed value cannot make the bracket enormous.
 */
export const MAX_BRACKET_ROUNDS = 12;

/** Round names by distance from the final: 'Final', 'Semifinals', 'Quarterfinals', then 'Round of 16', 'Round of 32', ... */
export function bracketRoundName(roundNo: number, rounds: number): string {
  const fromFinal = rounds - roundNo;
  if (!Number.isInteger(fromFinal) || roundNo < 1 || fromFinal < 0) return `Round ${roundNo}`;
  if (fromFinal === 0) return 'Final';
  if (fromFinal === 1) return 'Semifinals';
  if (fromFinal === 2) return 'Quarterfinals';
  return `Round of ${2 ** (fromFinal + 1)}`;
}

/** ceil(log2(n)) for a whole n >= 1, exactly (no floating point). */
function ceilLog2(n: number): number {
  let bits = 0;
  while (2 ** bits < n) bits++;
  return bits;
}

function isPosition(n: number): boolean {
  return Number.isInteger(n) && n >= 1;
}

/** The number of rounds a game needs so that its slot fits in its round: round + ceil(log2(slot)). */
function roundsNeeded(game: Pick<BracketGame, 'round' | 'slot'>): number {
  return game.round + ceilLog2(game.slot);
}

/**
 * The bracket with every slot of every round. The number of rounds R is the smallest that fits
 * every game (the largest round + ceil(log2(slot)) over the games); round r has 2^(R-r) slots and
 * round R is the final. Games that cannot be placed (round or slot not a whole number >= 1, or
 * needing more than MAX_BRACKET_ROUNDS rounds) are left out; of two games in one slot the first
 * one given is shown. bracketProblems reports all of these.
 */
export function knockoutBracket(games: readonly BracketGame[]): KnockoutBracket {
  const placed = new Map<string, BracketGame>();
  let rounds = 0;
  for (const game of games) {
    if (!isPosition(game.round) || !isPosition(game.slot)) continue;
    const needed = roundsNeeded(game);
    if (needed > MAX_BRACKET_ROUNDS) continue;
    const key = `${game.round}:${game.slot}`;
    if (placed.has(key)) continue;
    placed.set(key, game);
    rounds = Math.max(rounds, needed);
  }
  if (rounds === 0) return { rounds: [], championTeamId: null };

  const result: BracketRound[] = [];
  let previous: BracketSlot[] = [];
  for (let roundNo = 1; roundNo <= rounds; roundNo++) {
    const slots: BracketSlot[] = [];
    const size = 2 ** (rounds - roundNo);
    for (let slot = 1; slot <= size; slot++) {
      const game = placed.get(`${roundNo}:${slot}`);
      const homeTeamId = game?.homeTeamId ?? previous[2 * slot - 2]?.winnerTeamId ?? null;
      const awayTeamId = game?.awayTeamId ?? previous[2 * slot - 1]?.winnerTeamId ?? null;
      let winnerTeamId: string | null = null;
      if (game?.status === 'COMPLETED' && game.winner !== null) {
        winnerTeamId = game.winner === 'home' ? homeTeamId : awayTeamId;
      }
      slots.push({
        slot,
        eventId: game?.eventId ?? null,
        homeTeamId,
        awayTeamId,
        winnerTeamId,
        status: game?.status ?? null,
      });
    }
    result.push({ roundNo, name: bracketRoundName(roundNo, rounds), slots });
    previous = slots;
  }
  return { rounds: result, championTeamId: previous[0]?.winnerTeamId ?? null };
}

/**
 * Problems in a set of bracket games, for feed validation: a round or slot that is not a whole
 * number >= 1, a second game in a (round, slot) already taken, and a slot beyond its round's size.
 *
 * A round's size is known once the first round is in the feed: the first round sets the field (its
 * highest slot m makes a bracket of 1 + ceil(log2(m)) rounds, or more when a later round is
 * present), and a later round r then holds 2^(R-r) slots; a game beyond that is fed by no
 * first-round game. The check assumes the first round is published whole, as it is when the bracket
 * is drawn. Without first-round games, or within the first round, only MAX_BRACKET_ROUNDS bounds a
 * slot (knockoutBracket grows the bracket to fit).
 */
export function bracketProblems(games: readonly Pick<BracketGame, 'eventId' | 'round' | 'slot'>[]): BracketProblem[] {
  const problems: BracketProblem[] = [];
  const valid: Array<Pick<BracketGame, 'eventId' | 'round' | 'slot'>> = [];
  for (const game of games) {
    let ok = true;
    if (!isPosition(game.round)) {
      problems.push({
        eventId: game.eventId,
        field: 'bracketRound',
        message: `bracketRound must be a whole number of at least 1 (got ${game.round})`,
      });
      ok = false;
    } else if (game.round > MAX_BRACKET_ROUNDS) {
      problems.push({
        eventId: game.eventId,
        field: 'bracketRound',
        message: `bracketRound ${game.round} is beyond the largest bracket (${MAX_BRACKET_ROUNDS} rounds)`,
      });
      ok = false;
    }
    if (!isPosition(game.slot)) {
      problems.push({
        eventId: game.eventId,
        field: 'bracketSlot',
        message: `bracketSlot must be a whole number of at least 1 (got ${game.slot})`,
      });
      ok = false;
    }
    if (ok && roundsNeeded(game) > MAX_BRACKET_ROUNDS) {
      problems.push({
        eventId: game.eventId,
        field: 'bracketSlot',
        message: `bracketSlot ${game.slot} of round ${game.round} is beyond the largest bracket (${MAX_BRACKET_ROUNDS} rounds)`,
      });
      ok = false;
    }
    if (ok) valid.push(game);
  }

  const taken = new Map<string, string>();
  const distinct: typeof valid = [];
  for (const game of valid) {
    const key = `${game.round}:${game.slot}`;
    const first = taken.get(key);
    if (first !== undefined) {
      problems.push({
        eventId: game.eventId,
        field: 'bracketSlot',
        message: `round ${game.round} slot ${game.slot} is already taken by event ${first}`,
      });
      continue;
    }
    taken.set(key, game.eventId);
    distinct.push(game);
  }
  const firstRound = distinct.filter((g) => g.round === 1);
  if (firstRound.length === 0) return problems;
  const rounds = Math.max(...distinct.map((g) => g.round), ...firstRound.map(roundsNeeded));
  for (const game of distinct) {
    const size = 2 ** (rounds - game.round);
    if (game.slot > size) {
      problems.push({
        eventId: game.eventId,
        field: 'bracketSlot',
        message: `bracketSlot ${game.slot} is beyond round ${game.round}'s ${size} slot${size === 1 ? '' : 's'} (a ${2 ** rounds}-team bracket)`,
      });
    }
  }
  return problems;
}
