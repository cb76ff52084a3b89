import { forbidden } from '../domain/errors.ts';

/** The competitions a caller's key may read; null means every competition. */
export type AccessScope = readonly string[] | null;

export function canRead(scope: AccessScope, competition: string): boolean {
  return scope === null || scope.includes(competition);
}

export function assertCanRead(scope: AccessScope, competition: string): void {
  if (!canRead(scope, competition)) {
    throw forbidden(`This API key does not give access to the competition "${competition}"`, {
      competition,
      allowedCompetitions: scope,
    });
  }
}
