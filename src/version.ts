import manifest from '../package.json' with { type: 'json' };

/**
 * The release, declared once, in package.json: `altsports --version`, `/healthz` and the OpenAPI
 * document's `info.version` (and so the docs page's badge) all say this. The API's path version (v1)
 * is another thing, stated in the OpenAPI description.
 */
export const VERSION: string = manifest.version;
