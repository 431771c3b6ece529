// PLACEHOLDER: replaced by the HTTP core (issue 3).
import type { ApiClient } from '../api-client.js';
export interface ClientSettings { [key: string]: unknown }
export function createApiClient(_settings: ClientSettings): ApiClient {
  throw new Error('HTTP client not implemented yet');
}
