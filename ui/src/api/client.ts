// The one way the UI talks to the server: fetch with the admin token when asked, and every
// failure turned into an ApiFailure {status, code, detail} whose detail is shown as it is.

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly retryAfter?: number,
    /** The rules an e-invoice broke (400 einvoice_invalid's body field rules: [{id, detail, location}]). */
    readonly rules?: { id: string; detail: string; location: string }[],
    /** The whole JSON error body: a failure's own fields (422 accessibility_failed's failed and needs_person). */
    readonly body?: Record<string, unknown>,
  ) {
    super(detail);
    this.name = 'ApiFailure';
  }
}

type Listener = () => void;

let adminToken: string | null = null;
const unauthorizedListeners = new Set<Listener>();

export function setAdminToken(token: string | null): void {
  adminToken = token;
}

/** Called when the server refuses the admin token (revoked, restarted with another one). */
export function onUnauthorized(listener: Listener): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

export interface CallOptions {
  body?: unknown;
  /** Bytes to send as they are (an asset upload), with their Content-Type; instead of body. */
  file?: Blob;
  /** Send the admin token (every /admin/v1 call). */
  admin?: boolean;
  /** Send this bearer instead (an API key). */
  bearer?: string;
  signal?: AbortSignal;
  query?: Record<string, string | number | undefined | null>;
}

export async function call(method: string, path: string, options: CallOptions = {}): Promise<Response> {
  const headers: Record<string, string> = {};
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (options.file) headers['Content-Type'] = options.file.type || 'application/octet-stream';
  const bearer = options.bearer ?? (options.admin ? adminToken : null);
  if (bearer) headers.Authorization = `Bearer ${bearer}`;
  let response: Response;
  try {
    response = await fetch(path + queryString(options.query), {
      method,
      headers,
      body: options.file ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
      signal: options.signal,
      cache: 'no-store',
    });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiFailure(0, 'network_error', 'The server could not be reached. Is it running?');
  }
  if (!response.ok) throw await failureOf(response, options.admin === true);
  return response;
}

export async function callJson<T>(method: string, path: string, options: CallOptions = {}): Promise<T> {
  const response = await call(method, path, options);
  return (await response.json()) as T;
}

export interface PdfResponse {
  bytes: Uint8Array;
  headers: Headers;
}

/** The file name a response's Content-Disposition gives: filename* (UTF-8) when present, else the quoted ASCII one. */
export function filenameOf(headers: Headers): string | undefined {
  const disposition = headers.get('content-disposition') ?? '';
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1];
  if (encoded) {
    try {
      return decodeURIComponent(encoded);
    } catch {
      // A malformed escape: the ASCII fallback below still names it.
    }
  }
  return /filename="([^"]+)"/.exec(disposition)?.[1];
}

export async function callPdf(method: string, path: string, options: CallOptions = {}): Promise<PdfResponse> {
  const response = await call(method, path, options);
  return { bytes: new Uint8Array(await response.arrayBuffer()), headers: response.headers };
}

async function failureOf(response: Response, admin: boolean): Promise<ApiFailure> {
  let code = 'http_error';
  let detail = `The server answered ${response.status} ${response.statusText}.`;
  let rules: ApiFailure['rules'];
  let whole: Record<string, unknown> | undefined;
  try {
    const body = (await response.json()) as { code?: unknown; detail?: unknown; rules?: unknown };
    whole = body;
    if (typeof body.code === 'string') code = body.code;
    if (typeof body.detail === 'string') detail = body.detail;
    if (Array.isArray(body.rules)) rules = body.rules as ApiFailure['rules'];
  } catch {
    // Not the API's JSON error body (a proxy's page, say): keep the status sentence.
  }
  if (admin && response.status === 401) for (const listener of unauthorizedListeners) listener();
  const retry = Number(response.headers.get('Retry-After'));
  return new ApiFailure(response.status, code, detail, Number.isFinite(retry) && retry > 0 ? retry : undefined, rules, whole);
}

function queryString(query: CallOptions['query']): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== null && value !== '') params.set(name, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** A failure as a sentence, whatever was thrown. */
export function describeFailure(error: unknown): string {
  if (error instanceof ApiFailure) return error.detail;
  return error instanceof Error ? error.message : String(error);
}

/** The rules a refused e-invoice broke, when the failure names them (400 einvoice_invalid). */
export function failureRules(error: unknown): ApiFailure['rules'] {
  return error instanceof ApiFailure ? error.rules : undefined;
}
