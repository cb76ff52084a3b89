// The reporter module that scripts/run-tests.ts hands to node:test. Node 20 loads reporters before the
// `--import tsx` hooks apply, so this plain module registers tsx itself to load the TypeScript one.
import { register } from 'tsx/esm/api';

register();
const { default: slowestFiles } = await import('./slowest-files.ts');
export default slowestFiles;
