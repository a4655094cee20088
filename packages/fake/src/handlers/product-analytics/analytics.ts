/**
 * Product analytics through the query proxy, for readers of the project (404 otherwise). The analytics query engine
 * base URL and key application settings (`<prefix>_api_base_url`, `<prefix>_api_key`) must be set first: until an
 * administrator sets both, the operations answer 404 saying so. Query members must carry the `TrackedEvents.` or
 * `Sessions.` prefix (400 naming the member). The fake holds no tracked events, so a load returns the query with an
 * empty `data`; a dry run returns the query; meta lists the documented members.
 */
import type { Handlers } from '@service-api/server';
import type { Principal } from '../../auth.ts';
import { message, PROJECT_NOT_FOUND, readableProject } from '../../common.ts';
import type { Store } from '../../store.ts';
import { currentSettings } from '../application/settings.ts';

const NOT_CONFIGURED = {
  status: 404 as const,
  body: message('404 Not Found - the analytics query engine base URL and key application settings are not set'),
};
const MEMBERS = [
  'TrackedEvents.count',
  'TrackedEvents.utcTime',
  'TrackedEvents.docPath',
  'Sessions.count',
  'Sessions.startAt',
];

interface Query {
  measures?: string[];
  dimensions?: string[];
  timeDimensions?: { dimension?: string }[];
}

/** Whether some prefix has both a base URL and a key set. */
function configured(store: Store): boolean {
  const settings = currentSettings(store) as Record<string, unknown>;
  const set = (name: string) => typeof settings[name] === 'string' && settings[name] !== '';
  return Object.keys(settings).some(
    (name) => name.endsWith('_api_base_url') && set(name) && set(`${name.slice(0, -'_api_base_url'.length)}_api_key`),
  );
}

/** The members of a query without the `TrackedEvents.` or `Sessions.` prefix. */
function unprefixed(query: Query): string[] {
  const members = [
    ...(query.measures ?? []),
    ...(query.dimensions ?? []),
    ...(query.timeDimensions ?? []).map((t) => t.dimension).filter((d) => d !== undefined),
  ];
  return members.filter((m) => !/^(TrackedEvents|Sessions)\.\w/.test(m));
}

export function analyticsHandlers(store: Store): Handlers<Principal> {
  /** The project and the refusal, if any, shared by the three operations. */
  const admit = (id: number, principal: Principal | undefined, query?: Query) => {
    const project = readableProject(store, id, principal);
    if (!project) return PROJECT_NOT_FOUND;
    if (!configured(store)) return NOT_CONFIGURED;
    const bad = query ? unprefixed(query) : [];
    if (bad.length > 0)
      return {
        status: 400 as const,
        body: message(`400 Bad request - members need the TrackedEvents. or Sessions. prefix: ${bad.join(', ')}`),
      };
    return undefined;
  };

  return {
    'product-analytics/load-query': ({ params, body }, { principal }) => {
      const refused = admit(params.id, principal, body.query);
      if (refused) return refused;
      return { status: 201, body: { query: body.query, data: [] } };
    },
    'product-analytics/dry-run-query': ({ params, body }, { principal }) => {
      const refused = admit(params.id, principal, body.query);
      if (refused) return refused;
      return {
        status: 201,
        body: { query: body.query, ...(body.queryType === undefined ? {} : { queryType: body.queryType }) },
      };
    },
    'product-analytics/get-meta': ({ params }, { principal }) => {
      const refused = admit(params.id, principal);
      if (refused) return refused;
      return { status: 200, body: { members: MEMBERS } };
    },
  };
}
