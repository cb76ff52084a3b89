import { fail } from '../domain/errors.ts';
import { formatPublicId, isJaiAlaiCardId } from '../domain/public-id.ts';
import { JAI_ALAI_SETS_TO_WIN, matchStatus } from '../domain/results/match-score.ts';
import type { JaiAlaiMatch } from '../shapes/sport-events.ts';
import type { Store } from '../store/database.ts';
import { eventsRepository } from '../store/repositories/events-repository.ts';
import { type AccessScope, assertFoundInScope } from './access-scope.ts';
import { periodScores } from './sport-events.ts';
import { teamMatch } from './team-match.ts';

/**
 * Route 16: the matches of a Jai Alai card (a night at one venue), as section 2.7's items. Each match
 * is an event of its own (`jaialai:<uuid>`, the id its odds route takes); the card id
 * `<prefix>:<YYYY-MM-DD>_<text>` groups them and is carried by the event list and the event document.
 * Match scores count sets won; final scores are points over all sets.
 */
export async function getJaiAlaiCard(store: Store, cardId: string, scope: AccessScope): Promise<JaiAlaiMatch[]> {
  if (!isJaiAlaiCardId(cardId)) {
    throw fail(
      'INVALID_PARAMETER',
      {
        where: 'path parameter',
        name: 'id',
        reason: `"${cardId}" is not a Jai Alai card id of the form <prefix>:<YYYY-MM-DD>_<text> (find them as cardId in the event list)`,
      },
      { parameter: 'id', value: cardId },
    );
  }
  const repo = eventsRepository(store.db);
  const events = await repo.findCard(cardId);
  const unknown = () => fail('JAI_ALAI_CARD_NOT_FOUND', { cardId }, { id: cardId });
  if (events.length === 0) throw unknown();
  for (const event of events) assertFoundInScope(scope, event.competition, unknown);
  const matches = (await repo.documentsOf(events)).map(teamMatch);
  return matches.map((match) => {
    const { event } = match.rows;
    const sets = match.periods.map((p) => p.score);
    const points = (side: 'home' | 'away') => sets.reduce((sum, s) => sum + s[side], 0);
    return {
      id: formatPublicId(event.competition, event.id),
      // Every match was found by this card id.
      cardId,
      numericEventId: event.referenceId,
      name: event.name,
      startDate: event.startDate,
      endDate: event.endDate,
      eventNumber: event.eventNumber,
      eventType: event.eventType ?? 'Doubles',
      streamUrl: event.streamUrl,
      eventStatus: event.eventStatus,
      matchStatus: matchStatus(event.eventStatus, sets, JAI_ALAI_SETS_TO_WIN),
      onServeNow: event.onServe,
      winner: match.winner,
      eventLocation: event.eventLocation,
      sets: match.periods.map((period) => ({
        id: period.round.id,
        startDate: period.round.startDate,
        endDate: period.round.endDate,
        roundStatus: period.round.roundStatus,
        name: period.round.roundName,
        scores: periodScores(match, period),
      })),
      homeTeam: match.home?.team.name ?? null,
      awayTeam: match.away?.team.name ?? null,
      homeTeamFinalScore: points('home'),
      awayTeamFinalScore: points('away'),
      homeTeamMatchScore: match.score.home,
      awayTeamMatchScore: match.score.away,
      teams: [match.home, match.away].flatMap((team) =>
        team ? [{ id: team.teamId, name: team.team.name, isHomeTeam: team.isHomeTeam }] : [],
      ),
      updatedAt: event.contentUpdatedAt,
    };
  });
}
