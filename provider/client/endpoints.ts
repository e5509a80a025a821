/**
 * Endpoint addresses. The spec does not give the real API's address, so these use the reserved
 * `.example` domain (RFC 2606) in the reference client's layout (`/xmlrpc/v3.1/`, one URL per
 * service under it). Pass `endpointUrl` (or set `SVC_ENDPOINT_URL`) to reach a real server or
 * the local emulator.
 */

/** The public XML-RPC endpoint; the default when nothing else is configured. */
export const API_PUBLIC_ENDPOINT = 'https://api.svc.example/xmlrpc/v3.1/';
/** The private-network endpoint, reachable only from inside the provider's network. */
export const API_PRIVATE_ENDPOINT = 'https://api.service.svc.example/xmlrpc/v3.1/';

/** The endpoint without trailing slashes: `.../v3.1/` and `.../v3.1` are the same endpoint. */
export function endpointBase(endpointUrl: string): string {
  return endpointUrl.replace(/\/+$/, '');
}

/** The URL of one service: the endpoint's base, then the prefixed service name. */
export function serviceUrl(endpointUrl: string, remoteService: string): string {
  return `${endpointBase(endpointUrl)}/${remoteService}`;
}
