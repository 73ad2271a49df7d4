// How the MCP server reaches Quire: as a client of its own /v1 API, with the caller's API key. Every
// tool call is one ordinary HTTP request, so auth, plan metering, rate limits, the network guard,
// body limits and receipts are the API's own (docs/decisions.md#mcp-a-client-of-the-v1-api-issue-44).

/** What an API call answered: its status, headers and body bytes. */
export interface ApiAnswer {
  status: number;
  headers: Headers;
  bytes: Uint8Array;
}

/** One /v1 request with the caller's key: a JSON body (or none), the answer as it came. */
export type ApiCaller = (method: 'GET' | 'POST', path: string, body?: unknown) => Promise<ApiAnswer>;

/** Our `{code, detail}` error shape, as every 4xx/5xx of the API carries it. */
export interface ApiProblem {
  code: string;
  detail: string;
  status: number;
}

/** Calls the API at baseUrl with `Authorization: Bearer <key>`. */
export function apiCaller(baseUrl: string, key: string): ApiCaller {
  return async (method, path, body) => {
    const response = await fetch(new URL(path, baseUrl), {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, headers: response.headers, bytes: new Uint8Array(await response.arrayBuffer()) };
  };
}

/** The answer's JSON body (undefined when it is not JSON). */
export function jsonOf(answer: ApiAnswer): unknown {
  try {
    return JSON.parse(Buffer.from(answer.bytes).toString('utf8'));
  } catch {
    return undefined;
  }
}

/** The answer's `{code, detail}` when it is an error, else undefined. */
export function problemOf(answer: ApiAnswer): ApiProblem | undefined {
  if (answer.status < 400) return undefined;
  const json = jsonOf(answer) as { code?: unknown; detail?: unknown } | undefined;
  return {
    status: answer.status,
    code: typeof json?.code === 'string' ? json.code : 'internal_error',
    detail: typeof json?.detail === 'string' ? json.detail : `HTTP ${answer.status}`,
  };
}
