import { scoreProbabilities } from '../score-model.ts';
import type { JointScore } from './model.ts';
import { poissonPmf, ScoreTable } from './score-table.ts';

/**
 * Goals (box lacrosse, 3-on-3 hockey, arena soccer): independent Poisson goals, and sudden-death
 * overtime after a tie.
 */

export function goalsMatch(model: { home: number; away: number }): JointScore[] {
  const homePmf = poissonPmf(model.home);
  const awayPmf = poissonPmf(model.away);
  const overtimeHome = model.home / (model.home + model.away);
  const table = new ScoreTable(homePmf.length, awayPmf.length);
  for (let h = 0; h < homePmf.length; h++) {
    for (let a = 0; a < awayPmf.length; a++) {
      const p = (homePmf[h] as number) * (awayPmf[a] as number);
      if (h !== a) table.add(h, a, p);
      else {
        // Sudden death: the next goal wins, home's with its share of the scoring.
        table.add(h + 1, a, p * overtimeHome);
        table.add(h, a + 1, p * (1 - overtimeHome));
      }
    }
  }
  return table.joint();
}

/** Expected match total and home win of a goals model: the rates, plus the overtime goal after a tie. */
export function goalsSummary(home: number, away: number): { homeWin: number; expectedTotal: number } {
  const regulation = scoreProbabilities({ home, away });
  const overtimeHome = home / (home + away);
  return { homeWin: regulation.homeWin + regulation.draw * overtimeHome, expectedTotal: home + away + regulation.draw };
}
