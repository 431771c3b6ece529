// Matches a method and path against route templates (`/api/properties/{id}`). Literal segments win
// over parameters (`/api/keys/current` before `/api/keys/{id}`). A path that matches with another
// method gives the allowed methods (for a 405).

export interface RouteLike {
  method: string;
  path: string;
}

export type RouteMatch<R> =
  { kind: 'found'; route: R; params: Record<string, string> } | { kind: 'method-not-allowed'; allowed: string[] } | { kind: 'not-found' };

interface Compiled<R> {
  route: R;
  segments: string[];
  /** Lower is more specific: literal segments count before parameters. */
  rank: string;
}

export class Router<R extends RouteLike> {
  private readonly compiled: Compiled<R>[];

  constructor(routes: readonly R[]) {
    this.compiled = routes
      .map((route) => {
        const segments = route.path.split('/').slice(1);
        return { route, segments, rank: segments.map((segment) => (segment.startsWith('{') ? '1' : '0')).join('') };
      })
      .sort((a, b) => a.rank.localeCompare(b.rank));
  }

  match(method: string, path: string): RouteMatch<R> {
    const parts = path.split('/').slice(1);
    const allowed: string[] = [];
    for (const candidate of this.compiled) {
      const params = matchSegments(candidate.segments, parts);
      if (!params) continue;
      if (candidate.route.method === method) return { kind: 'found', route: candidate.route, params };
      if (!allowed.includes(candidate.route.method)) allowed.push(candidate.route.method);
    }
    return allowed.length > 0 ? { kind: 'method-not-allowed', allowed } : { kind: 'not-found' };
  }
}

function matchSegments(template: string[], parts: string[]): Record<string, string> | undefined {
  if (template.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < template.length; i++) {
    const expected = template[i]!;
    const actual = parts[i]!;
    if (expected.startsWith('{')) {
      if (actual === '') return undefined;
      let decoded: string;
      try {
        decoded = decodeURIComponent(actual);
      } catch {
        return undefined;
      }
      params[expected.slice(1, -1)] = decoded;
    } else if (expected !== actual) {
      return undefined;
    }
  }
  return params;
}
