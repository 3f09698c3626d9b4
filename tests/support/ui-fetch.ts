/**
 * Network of the 'ui' test project: closed by default. ui-setup.ts installs a fetch that
 * delegates here at load time (before the app's client captures globalThis.fetch), so a request
 * a test did not script fails the test. A test scripts answers with `scriptFetch`.
 */
export type FetchHandler = (request: Request) => Response | Promise<Response> | undefined | Promise<Response | undefined>;

let handler: FetchHandler | null = null;
export const unhandledRequests: string[] = [];
export const seenRequests: Request[] = [];

export function scriptFetch(fn: FetchHandler): void {
  handler = fn;
}

export function resetFetch(): void {
  handler = null;
  seenRequests.length = 0;
}

export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

export async function closedFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const request = input instanceof Request ? input : new Request(new URL(String(input), 'http://localhost/'), init);
  seenRequests.push(request);
  const answer = handler ? await handler(request.clone()) : undefined;
  if (answer) return answer;
  const what = `${request.method} ${request.url}`;
  unhandledRequests.push(what);
  throw new TypeError(`Unhandled network request in a UI test: ${what}`);
}
