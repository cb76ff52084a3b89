import type { PlanInfo, PlanSettings } from '../../access/plans.ts';
import { loadConfig } from '../../config.ts';
import type { Command } from '../main.ts';
import { columns } from '../table.ts';
import { openMigratedStore } from './open-store.ts';

const USAGE = [
  'Usage:',
  '  altsports plans create --name NAME [--monthly-quota N] [--per-minute N] [--per-day N] [--competitions wsl,sls]',
  '                                                                add a plan',
  '  altsports plans list [--json]                                 list plans',
  '  altsports plans set ID_OR_NAME [--monthly-quota N] [--per-minute N] [--per-day N] [--competitions LIST]',
  '                                                                change a plan (its keys follow within 5 s)',
  '',
  'A plan is what a key is sold on: requests per calendar month (UTC), per minute and per UTC day, and',
  'the competitions it reads. N: a whole number, 0 or "unlimited" for no limit, "default" for the',
  "server's setting (RATE_LIMIT_PER_MINUTE / RATE_LIMIT_PER_DAY; no monthly quota). LIST: competition",
  "keys, or * for every competition. Put a key on a plan with `altsports keys create|limits --plan`; a key's",
  "own limits and competitions, where set, come before its plan's.",
].join('\n');

const show = (value: number | null, unit: string) =>
  `${value === null ? 'default' : value === 0 ? 'unlimited' : value}/${unit}`;

export const plansCommand: Command = {
  usage: USAGE,
  options: {
    name: { type: 'string' },
    'monthly-quota': { type: 'string' },
    'per-minute': { type: 'string' },
    'per-day': { type: 'string' },
    competitions: { type: 'string' },
    json: { type: 'boolean' },
  },
  async run({ values, positionals }) {
    const [action, target] = positionals;
    if (!action || !['create', 'list', 'set'].includes(action) || (action === 'set' && !target)) {
      console.error(USAGE);
      return 2;
    }
    const { createPlan, listPlans, setPlan } = await import('../../access/plans.ts');
    const settings = await settingsOf(values);
    if (action === 'set' && Object.keys(settings).length === 0) {
      console.error('altsports plans set: give at least one setting\n');
      console.error(USAGE);
      return 2;
    }
    const name = (values.name as string | undefined)?.trim();
    if (action === 'create' && !name) {
      console.error('altsports plans create: --name is required\n');
      console.error(USAGE);
      return 2;
    }
    const store = await openMigratedStore(loadConfig());
    try {
      if (action === 'list') {
        const plans = await listPlans(store);
        if (values.json) console.log(JSON.stringify(plans, null, 2));
        else for (const line of columns([HEADER, ...plans.map(row)])) console.log(line);
        return 0;
      }
      const plan =
        action === 'create'
          ? await createPlan(store, name as string, settings)
          : await setPlan(store, target as string, settings);
      console.log(`Plan ${plan.id} (${plan.name}): ${row(plan).slice(2, 5).join(' ')} for ${row(plan)[5]}`);
      return 0;
    } finally {
      await store.close();
    }
  },
};

const HEADER = ['ID', 'NAME', 'MONTHLY QUOTA', 'PER MINUTE', 'PER DAY', 'COMPETITIONS', 'CREATED'];

function row(plan: PlanInfo): string[] {
  return [
    plan.id,
    plan.name,
    plan.monthlyQuota ? `${plan.monthlyQuota}/month` : 'no quota',
    show(plan.ratePerMinute, 'min'),
    show(plan.ratePerDay, 'day'),
    plan.competitions ? plan.competitions.join(',') : '*',
    plan.createdAt,
  ];
}

/** The settings given on the command line; an absent option leaves that setting as it is. */
async function settingsOf(values: Record<string, string | boolean | undefined>): Promise<PlanSettings> {
  const { parseRateSetting } = await import('../../access/rate-limit.ts');
  const { parseCompetitionList } = await import('../../access/api-keys.ts');
  const number = (option: string) => {
    const value = values[option] as string | undefined;
    return value === undefined ? {} : { value: parseRateSetting(value, `--${option}`) };
  };
  const settings: PlanSettings = {};
  const quota = number('monthly-quota');
  const perMinute = number('per-minute');
  const perDay = number('per-day');
  if ('value' in quota) settings.monthlyQuota = quota.value;
  if ('value' in perMinute) settings.ratePerMinute = perMinute.value;
  if ('value' in perDay) settings.ratePerDay = perDay.value;
  if (values.competitions !== undefined)
    settings.competitions = parseCompetitionList(values.competitions as string | undefined);
  return settings;
}
