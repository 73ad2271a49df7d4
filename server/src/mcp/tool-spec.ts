// The shape of one MCP tool: its name, what the model reads about it, its input schema (a zod
// schema of the API's own, turned into JSON Schema when listed) and the /v1 call it makes.
// Also the two things several tools share: the charge sentence and storing what they make.

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { type ApiAnswer, type ApiCaller, problemOf } from './api-caller.ts';

/** What a tool call is given besides its arguments. */
export interface ToolContext {
  api: ApiCaller;
  /** A PDF up to this size is returned inline (MCP_INLINE_MAX_BYTES). */
  inlineMaxBytes: number;
}

export type ToolArgs = Record<string, unknown>;

export interface ToolSpec {
  name: string;
  title: string;
  description: string;
  /** The API's zod schema of the call's body (or one made of its fields): the tool's input schema. */
  input: z.ZodType;
  /** Reads only: nothing is charged, stored or changed. */
  readOnly: boolean;
  call(args: ToolArgs, context: ToolContext): Promise<CallToolResult>;
}

/** Said in the description of every tool that is charged, so the model knows before it calls. */
export const CHARGED =
  ' Charged: counts one document against the key’s monthly allowance (402 quota_exceeded when it is used up); a refused call is not charged.';

/** The tool's input schema as JSON Schema, as the request body is read (before transforms). */
export function inputJsonSchema(schema: z.ZodType): { type: 'object'; [key: string]: unknown } {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  return { ...json, type: 'object' };
}

/**
 * Calls a tool that makes a document with store: true when the caller left store out, so a large
 * result can be linked rather than inlined and read back as a resource. On a plan that keeps
 * nothing (422 storage_unavailable, refused before anything is rendered or charged) it asks again
 * without. `withStore` puts the flag where the endpoint reads it.
 */
export async function callStoring(
  api: ApiCaller,
  path: string,
  args: ToolArgs,
  storeOf: (args: ToolArgs) => unknown,
  withStore: (args: ToolArgs) => ToolArgs,
): Promise<ApiAnswer> {
  if (storeOf(args) !== undefined) return api('POST', path, args);
  const stored = await api('POST', path, withStore(args));
  return problemOf(stored)?.code === 'storage_unavailable' ? api('POST', path, args) : stored;
}

/** A path segment as the API expects it (ids are checked there). */
export const segment = (value: unknown) => encodeURIComponent(String(value ?? ''));
