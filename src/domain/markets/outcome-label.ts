import type { OddType, OverUnderSubMarketType, TeamMarketType } from '../enumerations.ts';
import type { OutcomeSide } from './selection.ts';

/**
 * What a bet slip shows for an outcome: one label per bet, so that the event winner, a heat
 * winner, fastest lap and holeshot of one rider read as four bets. Route 6's items, the head-to-head
 * sides, the team-match odds, the parlay's legs and the bet builder's options all carry this label.
 */

/** The market's fields that say what its outcomes bet on, with names resolved. */
export interface LabelMarket {
  oddType: OddType;
  /** The heat the market is decided in, as published (its name, else its number). */
  heat?: { heatName: string | null; heatNo: number | null } | null;
  /** A team market's period (the round's name), null for the whole match. */
  period?: string | null;
  exactasType?: number | null;
  overUnderSubMarketType?: OverUnderSubMarketType | null;
  line?: number | null;
  teamMarketType?: TeamMarketType | null;
  proposition?: string | null;
  /** shows: the places paid (3 when absent). */
  places?: number | null;
  /** overUnder and multiOverUnder: the athletes measured. */
  subjects?: readonly string[];
}

/** The outcome's fields that say what it backs, with names resolved. */
export interface LabelOutcome {
  /** The athlete backed. */
  athlete?: string | null;
  /** An exotic's athletes in finishing order; a dream team's members. */
  athletes?: readonly string[];
  /** A head-to-head's other side. */
  opponent?: string | null;
  side?: OutcomeSide | null;
  /** The outcome's own name (a prop's answer, a dream team's or a team outcome's name). */
  name?: string | null;
  /** A team market side's team name, when known. */
  team?: string | null;
}

export const ordinal = (k: number): string => {
  const teen = k % 100 >= 11 && k % 100 <= 13;
  return `${k}${teen ? 'th' : (['th', 'st', 'nd', 'rd'][k % 10] ?? 'th')}`;
};

export const MEASURES: Record<OverUnderSubMarketType, string> = {
  finishingPosition: 'finishing position',
  points: 'points',
  gapToLeaders: 'gap to the leaders',
};

const EXOTICS: Record<number, string> = { 2: 'Exacta', 3: 'Trifecta', 4: 'Superfecta' };

const UNNAMED = 'Unnamed';

/** The heat as published: its name, else "heat N". */
export function heatText(heat: NonNullable<LabelMarket['heat']>): string {
  const name = heat.heatName?.trim();
  if (name) return name;
  return heat.heatNo === null ? 'the heat' : `heat ${heat.heatNo}`;
}

const signed = (line: number) => (line > 0 ? `+${line}` : `${line}`);

export function outcomeLabel(market: LabelMarket, outcome: LabelOutcome): string {
  const who = outcome.athlete ?? UNNAMED;
  const heat = market.heat ? heatText(market.heat) : null;
  const inHeat = heat === null ? '' : ` in ${heat}`;
  switch (market.oddType) {
    case 'eventWinner':
    case 'heatWinner':
      return `${who} to win ${heat ?? 'the event'}`;
    case 'secondPlace':
      return `${who} to finish 2nd${inHeat}`;
    case 'fastestLap':
      return `${who} fastest lap${inHeat}`;
    case 'holeShot':
      return `${who} holeshot${inHeat}`;
    case 'podiums':
      return `${who} to make the podium${inHeat}`;
    case 'shows':
      // Named as the market is, so that a slip tells it from the race's top 3 beside it.
      return `${who} to show (top ${market.places ?? 3})${inHeat}`;
    case 'raceTop3':
      return `${who} top 3${inHeat}`;
    case 'raceTop5':
      return `${who} top 5${inHeat}`;
    case 'raceTop10':
      return `${who} top 10${inHeat}`;
    case 'eventExacta':
    case 'heatExacta':
      return exoticLabel(market, outcome.athletes ?? [], inHeat);
    case 'headToHead':
      return `${who} to beat ${outcome.opponent ?? UNNAMED}${inHeat}`;
    case 'overUnder':
    case 'multiOverUnder':
      return overUnderLabel(market, outcome, inHeat);
    case 'dreamTeam':
      return dreamTeamLabel(outcome);
    case 'teamMarkets':
      return teamLabel(market, outcome);
    case 'propBets':
      return propLabel(market, outcome);
  }
}

/** "Trifecta in Heat 1: A 1st, B 2nd, C 3rd". */
function exoticLabel(market: LabelMarket, athletes: readonly string[], inHeat: string): string {
  const kind = EXOTICS[market.exactasType ?? athletes.length] ?? 'Order';
  return `${kind}${inHeat}: ${athletes.map((name, i) => `${name} ${ordinal(i + 1)}`).join(', ')}`;
}

/** "A finishing position under 3.5", "A + B total points over 40.5 in Heat 2". */
function overUnderLabel(market: LabelMarket, outcome: LabelOutcome, inHeat: string): string {
  const subjects = market.subjects?.length ? market.subjects : [outcome.athlete ?? UNNAMED];
  const measure = MEASURES[market.overUnderSubMarketType ?? 'finishingPosition'];
  const total = subjects.length > 1 ? 'total ' : '';
  const side = (outcome.side ?? 'OVER').toLowerCase();
  return `${subjects.join(' + ')} ${total}${measure} ${side} ${market.line ?? 0}${inHeat}`;
}

/** "Dream team Blue: A, B, C" (the team with the lowest total of finishing positions wins). */
function dreamTeamLabel(outcome: LabelOutcome): string {
  const members = (outcome.athletes ?? []).join(', ');
  return outcome.name ? `Dream team ${outcome.name}: ${members}` : `Dream team ${members}`;
}

/** Moneyline "Sockers to win", spread "Sockers -1.5", total "Total over 9.5"; a period leads ("2nd Quarter: ..."). */
function teamLabel(market: LabelMarket, outcome: LabelOutcome): string {
  const period = market.period ? `${market.period}: ` : '';
  const side = outcome.side ?? null;
  const team = outcome.team ?? outcome.name ?? (side === 'HOME' ? 'Home' : side === 'AWAY' ? 'Away' : UNNAMED);
  const line = market.line ?? 0;
  switch (market.teamMarketType) {
    case 'moneyline':
      return `${period}${side === 'DRAW' ? 'Draw' : `${team} to win`}`;
    case 'spread':
      return `${period}${team} ${signed(side === 'AWAY' ? -line : line)}`;
    case 'total':
      return `${period}Total ${(side ?? 'OVER').toLowerCase()} ${line}`;
    default:
      // An untyped team market: a named outcome the operator settles.
      return outcome.name ?? outcome.team ?? UNNAMED;
  }
}

/** "Will anyone crash? Yes", "Most points (A): Yes": a question keeps its own mark. */
function propLabel(market: LabelMarket, outcome: LabelOutcome): string {
  const about = outcome.athlete ? ` (${outcome.athlete})` : '';
  const proposition = (market.proposition ?? 'Proposition').trim();
  const mark = /[?!:.]$/.test(proposition) && !about ? ' ' : ': ';
  return `${proposition}${about}${mark}${outcome.name ?? UNNAMED}`;
}
