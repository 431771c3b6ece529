// Which routes the mock serves for the description variant in use, and the Link header it adds.
// Switchable at run time (POST /__mock/description) so a test can change the service under a cache.
import { listPropertiesWithYearFilter } from '../handlers/properties.js';
import { listAllDesignations } from '../handlers/reference.js';
import { Router } from '../http/router.js';
import { API_ROUTES, type MockRoute } from '../routes.js';
import { ALTERNATIVE_DESCRIPTION_PATH, getAlternativeDocument, MOVED_ASSIGNMENTS, type DescriptionVariant } from './document.js';

export interface DescriptionRouting {
  variant: DescriptionVariant;
  router: Router<MockRoute>;
  /** RFC 8631 `Link` header sent on every answer, when the description is not at the usual place. */
  link: string | undefined;
  /** The standard description's routes (the mock's model), the ones another variant is made from. */
  standardRoutes: readonly MockRoute[];
}

function alternativeRoutes(standardRoutes: readonly MockRoute[]): MockRoute[] {
  const routes: MockRoute[] = [];
  for (const route of standardRoutes) {
    if (route.operationId === 'listFiles') continue;
    if (route.operationId === 'getOpenApiDocument')
      routes.push({ ...route, path: ALTERNATIVE_DESCRIPTION_PATH, handler: getAlternativeDocument });
    else if (route.operationId === 'listDesignations') routes.push({ ...route, handler: listAllDesignations });
    else if (route.operationId === 'listProperties') routes.push({ ...route, handler: listPropertiesWithYearFilter });
    else if (route.path.startsWith('/api/assignments'))
      routes.push({ ...route, path: `${MOVED_ASSIGNMENTS}${route.path.slice('/api/assignments'.length)}` });
    else routes.push(route);
  }
  return routes;
}

/** The routing of a variant, made from the standard routes (default: the real model's). */
export function routingFor(variant: DescriptionVariant, standardRoutes: readonly MockRoute[] = API_ROUTES): DescriptionRouting {
  if (variant === 'standard') return { variant, router: new Router(standardRoutes), link: undefined, standardRoutes };
  return {
    variant,
    router: new Router(alternativeRoutes(standardRoutes)),
    link: `<${ALTERNATIVE_DESCRIPTION_PATH}>; rel="service-desc"`,
    standardRoutes,
  };
}
