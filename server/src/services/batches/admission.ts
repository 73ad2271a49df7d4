// What a new batch passes before anything is kept (docs/api.md#batches): the validated input's
// shape, the plan's rules, the webhook target check, and the batch's first record. Apart from
// services/batches/batches.ts, which runs batches, so these refusals and the record's shape (which the
// store keeps for good) read in one place, with no state of the service.

import { traceHeaders } from '../../telemetry/spans.ts';
import { ApiError } from '../../errors.ts';
import { newId } from '../../ids.ts';
import type { Logger } from '../../logger.ts';
import type { AddressPolicy } from '../../guard/address-policy.ts';
import { BlockedUrlError, parseHttpUrl, UnresolvableHostError } from '../../guard/url-check.ts';
import type { Resolver } from '../../guard/dns-resolver.ts';
import { checkWebhookTarget } from '../../guard/webhook-target.ts';
import type { Plan } from '../../accounts/plans.ts';
import type { BatchRecord } from '../../stores/batch-store.ts';
import type { BatchItemRequest, TransformItemRequest } from '../render/request.ts';
import type { Account } from '../accounts/keys.ts';

/** A validated batch item; a transform item's preset is resolved to its steps when the batch is made. */
export type BatchItemInput = Omit<BatchItemRequest, 'transform'> & { transform?: Omit<TransformItemRequest, 'steps'> & Partial<TransformItemRequest> };

/** A validated batch request: every item's options already merged over the shared ones and complete. */
export interface BatchInput {
  requests: BatchItemInput[];
  async?: boolean;
  webhook_url?: string;
  webhook_secret?: string;
}

/** The plan allows batches, this many items, and keeps documents; plan_required, batch_too_large, storage_unavailable otherwise. */
export function checkBatchPlan(plan: Plan, items: number, offered: () => readonly Plan[]): void {
  if (plan.batchMaxItems <= 0) {
    const smallest = offered()
      .filter((candidate) => candidate.batchMaxItems > 0)
      .sort((a, b) => a.monthlyDocuments - b.monthlyDocuments)[0];
    throw new ApiError(
      'plan_required',
      smallest
        ? `Batch rendering is not included in the ${plan.name} plan; it starts with the ${smallest.name} plan.`
        : `Batch rendering is not included in the ${plan.name} plan, nor in any plan this server offers.`,
    );
  }
  if (items > plan.batchMaxItems) {
    throw new ApiError(
      'batch_too_large',
      `The ${plan.name} plan allows at most ${plan.batchMaxItems} items per batch (got ${items}); split the batch or move to a larger plan.`,
    );
  }
  // docs/api.md#batches: every batch item is stored, so a plan that keeps nothing cannot batch.
  if (plan.retentionSeconds <= 0) {
    throw new ApiError(
      'storage_unavailable',
      `The ${plan.name} plan keeps no documents (retention 0), and every batch item is stored; move the key to a plan with retention.`,
    );
  }
}

/** How webhook_url is checked: by the network guard when it is on, as an http(s) URL otherwise. */
export interface WebhookUrlCheck {
  guardEnabled: boolean;
  policy: AddressPolicy;
  resolve?: Resolver;
  log: Logger;
}

/** A webhook_url the server may post to; invalid_request or url_blocked otherwise. */
export async function checkWebhookUrl(url: string, options: WebhookUrlCheck): Promise<void> {
  try {
    if (options.guardEnabled) await checkWebhookTarget(url, options.policy, options.resolve);
    else parseHttpUrl(url);
  } catch (error) {
    if (error instanceof UnresolvableHostError) throw new ApiError('invalid_request', `webhook_url cannot be reached: ${error.message}.`);
    if (error instanceof BlockedUrlError) {
      options.log.warn({ reason: error.reason }, 'webhook_url blocked');
      throw new ApiError('url_blocked', 'webhook_url is not allowed: it must be a public http(s) address.');
    }
    throw error;
  }
}

/** The record of a batch just accepted: every item queued, with the document id it will be stored under. */
export function newBatchRecord(input: BatchInput, account: Account, inCall: boolean, created: Date): BatchRecord {
  const id = newId('bat');
  return {
    id,
    keyId: account.keyId,
    mode: inCall ? 'sync' : 'async',
    status: 'queued',
    createdAt: created.toISOString(),
    completedAt: null,
    expiresAt: new Date(created.getTime() + account.plan.retentionSeconds * 1000).toISOString(),
    webhook:
      input.webhook_url === undefined
        ? null
        : {
            url: input.webhook_url,
            secret: input.webhook_secret ?? null,
            messageId: `msg_${id.slice('bat_'.length)}`,
            status: 'waiting',
            nextAttemptAt: null,
            attempts: [],
          },
    traceparent: traceHeaders().traceparent,
    items: input.requests.map((request, index) => ({
      index,
      status: 'queued',
      documentId: newId('doc'),
      filename: request.filename ?? null,
      error: null,
      startedAt: null,
      finishedAt: null,
    })),
  };
}
