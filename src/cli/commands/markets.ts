import { readFile } from 'node:fs/promises';
import { loadConfig } from '../../config.ts';
import type { OddType } from '../../domain/enumerations.ts';
import type { MarginMethod } from '../../domain/pricing/margin.ts';
import { jsonSyntaxProblem } from '../../domain/text.ts';
import type { Command } from '../main.ts';
import { openMigratedStore } from './open-store.ts';

const USAGE = [
  'Usage: altsports markets generate EVENT_ID (--win-probabilities FILE | --ratings FILE)',
  '                 [--overround 0.05] [--margin power|multiplicative] [--shape 1] [--odd-types eventWinner,podiums]',
  '',
  "Prices an event: FILE is a JSON object of athlete id to win probability (the generate route's",
  'winProbabilities: weights, normalised) or to rating points (ratings: 400 points is ten times the odds).',
  'One finishing-order model is fitted to it, recorded with the prices, and every',
  'market the competition offers is derived from it (event markets, and heat markets for each heat whose',
  'draw is stored), with the margin applied by the chosen method, and written through the feed ingest.',
  'Prices are published within MIN_DECIMAL_ODDS..MAX_DECIMAL_ODDS on PRICE_LADDER (two decimals by',
  "default), rounded towards the house, beside the model's probability (see `altsports config`).",
  'The same as POST /api/v1/admin/events/{eventId}/markets/generate.',
].join('\n');

export const marketsCommand: Command = {
  usage: USAGE,
  options: {
    'win-probabilities': { type: 'string' },
    ratings: { type: 'string' },
    overround: { type: 'string' },
    margin: { type: 'string' },
    shape: { type: 'string' },
    'odd-types': { type: 'string' },
  },
  async run({ values, positionals }) {
    const [action, eventId] = positionals;
    if (
      action !== 'generate' ||
      !eventId ||
      positionals.length > 2 ||
      Boolean(values['win-probabilities']) === Boolean(values.ratings)
    ) {
      console.error(USAGE);
      return 2;
    }
    const file = (values['win-probabilities'] ?? values.ratings) as string;
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      console.error(`altsports markets: cannot read ${file}: ${(error as Error).message}`);
      return 2;
    }
    let given: Record<string, number>;
    try {
      given = JSON.parse(text) as Record<string, number>;
    } catch {
      console.error(`altsports markets: ${file} is not valid JSON: ${jsonSyntaxProblem(text)}`);
      return 2;
    }
    const number = (name: string) => (values[name] === undefined ? undefined : Number(values[name]));
    const { generateMarketsForEvent } = await import('../../ingest/generate-markets.ts');
    const config = loadConfig();
    const store = await openMigratedStore(config);
    try {
      const result = await generateMarketsForEvent(
        store,
        eventId,
        {
          ...(values['win-probabilities'] ? { winProbabilities: given } : { ratings: given }),
          overround: number('overround'),
          marginMethod: values.margin as MarginMethod | undefined,
          shape: number('shape'),
          oddTypes: values['odd-types'] ? ((values['odd-types'] as string).split(',') as OddType[]) : undefined,
        },
        new Date(),
        config.pricePolicy,
      );
      const { markets, odds } = result.summary;
      console.log(`Generated ${result.marketsGenerated} markets and ${result.oddsGenerated} odds for ${eventId}`);
      console.log(
        `  markets: ${markets.inserted} new, ${markets.updated} updated; odds: ${odds.inserted} new, ${odds.updated} updated`,
      );
    } finally {
      await store.close();
    }
  },
};
