import { type CodedError, fail } from '../domain/errors.ts';

/** The competitions a caller's key may read; null means every competition. */
export type AccessScope = readonly string[] | null;

export function canRead(scope: AccessScope, competition: string): boolean {
  return scope === null || scope.includes(competition);
}

export function assertCanRead(scope: AccessScope, competition: string): void {
  if (!canRead(scope, competition)) {
    throw fail('COMPETITION_FORBIDDEN', { competition }, { competition, allowedCompetitions: scope });
  }
}

/**
 * For what a request names by id (an event, a card, a tour year): outside the scope it is answered as
 * an unknown id is, by `unknown`. A 403 naming its competition would tell a scoped key
 * which ids exist elsewhere. A filter naming a competition keeps its 403 (assertCanRead): it reveals
 * nothing the catalogue does not.
 */
export function assertFoundInScope(scope: AccessScope, competition: string, unknown: () => CodedError): void {
  if (!canRead(scope, competition)) throw unknown();
}
