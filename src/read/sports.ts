import { COMPETITIONS, type Competition } from '../domain/competitions.ts';
import type { SportListingItem } from '../shapes/sports.ts';
import { type AccessScope, canRead } from './access-scope.ts';

/** Route 1: the catalogue, limited to what the caller's key may read. */
export function listSports(scope: AccessScope): SportListingItem[] {
  return COMPETITIONS.filter((c) => canRead(scope, c.key)).map((c) => ({
    key: c.key,
    referenceId: c.referenceId,
    name: c.name,
    supportedMarkets: [...c.supportedMarkets],
    sportKey: c.sportKey,
    sportName: c.sportName,
    resultsFormat: c.resultsFormat,
  }));
}

/** The sport and competition a document belongs to, as the per-heat and sport-specific documents name them. */
export function competitionFields(competition: Competition) {
  return {
    numericSportId: competition.sportReferenceId,
    sportKey: competition.sportKey,
    sportName: competition.sportName,
    numericCompetitionId: competition.referenceId,
    competitionKey: competition.key,
    competitionName: competition.name,
  };
}
