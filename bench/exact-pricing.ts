import { parseArgs } from 'node:util';
import { getCompetition } from '../src/domain/competitions.ts';
import type { OddType } from '../src/domain/enumerations.ts';
import { inPlayField, knockedOutPlaces } from '../src/domain/pricing/in-play.ts';
import { inPlayMarkets } from '../src/domain/pricing/in-play-markets.ts';
import { generateEventMarkets } from '../src/domain/pricing/market-generator.ts';
import { Random } from '../src/domain/random.ts';

/**
 * `npm run bench:pricing`: the time to price a 30-athlete field exactly (target under
 * 50 ms): every Supercross field market the exact engine answers (winner, second place, head-to-heads,
 * podiums, shows, top 3, 5 and 10, exactas, trifectas and superfectas, finishing-position lines,
 * props), with the margin, as the generate route does, for Plackett-Luce and for a gamma race. The
 * two simulated markets (multiOverUnder, dreamTeam) are timed apart, on their own line. Then the
 * same field in play (target under 50 ms): a third of it knocked out, a heat of four under
 * way, every market of the event and the heat's priced again from the field still in, as the demo's
 * simulator does each tick (its 2,000 draws for the two simulated markets included).
 * Usage: npm run bench:pricing -- [--athletes 30] [--iterations 20] [--shapes 1,4]
 */

const { values } = parseArgs({
  options: {
    athletes: { type: 'string', default: '30' },
    iterations: { type: 'string', default: '20' },
    shapes: { type: 'string', default: '1,4' },
  },
});
const athletes = Number(values.athletes);
const iterations = Number(values.iterations);
const SIMULATED: readonly OddType[] = ['multiOverUnder', 'dreamTeam'];
const supported = getCompetition('spr').supportedMarkets.filter((t) => t !== 'heatWinner' && t !== 'holeShot');
const exactTypes = supported.filter((t) => !SIMULATED.includes(t) && t !== 'fastestLap');
const athleteIds = Array.from({ length: athletes }, (_, i) => `a${i}`);
// A realistic spread: the favourite about 30 times the outsider's chance.
const win = athleteIds.map((_, i) => 1 / (i + 1) ** 1.1);

function timeIt(oddTypes: readonly OddType[], shape: number, samples: number): { medianMs: number; odds: number } {
  const times: number[] = [];
  let odds = 0;
  for (let i = 0; i < iterations + 2; i++) {
    const rng = new Random(i);
    const started = performance.now();
    const generated = generateEventMarkets(
      { eventId: 'bench', athleteIds, win, oddTypes },
      { overround: 0.05, marginMethod: 'power', shape, samples, uniform: () => rng.next() },
    );
    const ms = performance.now() - started;
    odds = generated.odds.length;
    // The first two warm the JIT.
    if (i >= 2) times.push(ms);
  }
  times.sort((a, b) => a - b);
  return { medianMs: times[Math.floor(times.length / 2)] as number, odds };
}

for (const shape of (values.shapes as string).split(',').map(Number)) {
  const exact = timeIt(exactTypes, shape, 1);
  console.log(
    `exact pricing, ${athletes} athletes, shape ${shape}: ${exact.medianMs.toFixed(1)} ms median over ${iterations} (${exact.odds} odds; target under 50 ms)`,
  );
}
const simulated = timeIt(SIMULATED, 1, 100_000);
console.log(
  `simulated markets (multiOverUnder, dreamTeam), ${athletes} athletes, 100,000 orders: ${simulated.medianMs.toFixed(1)} ms median`,
);

/** Every market of the field in play, with 10 athletes knocked out and a heat of four half run. */
function timeInPlay(shape: number): { medianMs: number; odds: number } {
  const rng = new Random(1);
  const heat = { heatId: 'h-live', athleteIds: athleteIds.slice(0, 4) };
  const before = generateEventMarkets(
    {
      eventId: 'bench',
      athleteIds,
      win,
      heats: [heat],
      mainHeatId: 'h-main',
      oddTypes: getCompetition('spr').supportedMarkets,
    },
    { overround: 0.05, marginMethod: 'power', shape, samples: 5_000, uniform: () => rng.next() },
  );
  const knockedOut = knockedOutPlaces([athleteIds.slice(-10)], athletes);
  const standings = heat.athleteIds.map((athleteId, i) => ({ athleteId, standing: 10 - i }));
  const times: number[] = [];
  let odds = 0;
  for (let i = 0; i < iterations + 2; i++) {
    const draws = new Random(i);
    const started = performance.now();
    const field = inPlayField(athleteIds, win, { knockedOut, heat: { standings, progress: 0.5 + i / 1000 } });
    const priced = inPlayMarkets(
      { markets: before.markets, odds: before.odds, field, heats: [heat], startedHeats: new Set(['h-live']) },
      { overround: 0.05, marginMethod: 'power', shape, samples: 2_000, uniform: () => draws.next() },
    );
    const ms = performance.now() - started;
    odds = priced.odds.length;
    if (i >= 2) times.push(ms);
  }
  times.sort((a, b) => a - b);
  return { medianMs: times[Math.floor(times.length / 2)] as number, odds };
}

for (const shape of (values.shapes as string).split(',').map(Number)) {
  const live = timeInPlay(shape);
  console.log(
    `in play, ${athletes} athletes (10 out, a heat under way), shape ${shape}, every market: ${live.medianMs.toFixed(1)} ms median over ${iterations} (${live.odds} odds; target under 50 ms)`,
  );
}
