// Stored documents: whether a render keeps a copy (store flag, auto_store, plan retention), keeping
// it, listing, fetching and deleting for the owning key (or the admin, across keys), and
// retention: a document past its expiry answers 410 and its bytes are deleted for good.
// The retention sweeper (queue/retention-sweeper.ts) calls sweep(); a fetch of a document that
// expired since the last sweep expires it on the spot, so a 410 always means the bytes are gone.

import { ApiError } from '../../errors.ts';
import { newId } from '../../ids.ts';
import type { Plan } from '../../accounts/plans.ts';
import { countPages } from '../../pdf/page-count.ts';
import type { DocumentStore } from '../../stores/document-store.ts';
import type { DocumentRecord, DocumentSource, StoredDocument } from '../../stores/document-record.ts';
import type { PdfReader } from '../../stores/pdf-blobs.ts';
import { pageOrBadCursor, type Page } from './paging.ts';
import type { Owner } from './owner.ts';

export type { StoredDocument };

/** How a document would be kept: under which plan and for how long. */
export interface StoragePlan {
  planId: string;
  retention: string;
  retentionSeconds: number;
}

export interface KeepRequest {
  keyId: string;
  storage: StoragePlan;
  /** The PDF kept: its size goes on the record, and its page count when `pages` is not given. */
  pdf: Uint8Array;
  /** Its page count, from the caller that knows it (a transform's parts, a count on the PDF worker). */
  pages?: number;
  filename?: string;
  source: DocumentSource;
  batchId?: string;
  /** The id to store it under (a batch item's, fixed before it renders); default a new one. */
  id?: string;
}

export interface DocumentsServiceDeps {
  store: DocumentStore;
  /** How long an expired document still answers 410 (then 404), in seconds. */
  tombstoneSeconds: number;
  now?: () => Date;
}

export class DocumentsService {
  private readonly now: () => Date;

  constructor(private readonly deps: DocumentsServiceDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  /**
   * Whether a render keeps a copy. docs/api.md#rendering-post-v1pdf: an explicit store wins over auto_store; store: true
   * on a plan with zero retention is 422 storage_unavailable; auto_store there stores nothing.
   */
  storageFor(account: { autoStore: boolean; plan: Plan }, store: boolean | undefined): StoragePlan | undefined {
    const wanted = store ?? account.autoStore;
    if (!wanted) return undefined;
    const { plan } = account;
    if (plan.retentionSeconds <= 0) {
      if (store === undefined) return undefined;
      throw new ApiError(
        'storage_unavailable',
        `The ${plan.name} plan keeps no documents (retention 0), so store cannot be used; render without store, or move the key to a plan with retention.`,
      );
    }
    return { planId: plan.id, retention: String(plan.retention), retentionSeconds: plan.retentionSeconds };
  }

  /** The record a render's copy is kept under (stores/render-commit.ts keeps it with the charge). */
  recordFor(request: KeepRequest): DocumentRecord {
    const created = this.now();
    // The caller's count, else the cheap count (the page tree root, no parse), which fits on the
    // request path; a file it cannot read (another writer's layout) is kept without a count rather
    // than parsed here (RenderService counts such files on the PDF worker before it gets here).
    const pages = request.pages ?? countPages(request.pdf);
    return {
      id: request.id ?? newId('doc'),
      keyId: request.keyId,
      filename: request.filename ?? null,
      size: request.pdf.byteLength,
      ...(pages === undefined ? {} : { pages }),
      createdAt: created.toISOString(),
      expiresAt: new Date(created.getTime() + request.storage.retentionSeconds * 1000).toISOString(),
      source: request.source,
      batchId: request.batchId ?? null,
      planId: request.storage.planId,
      retention: request.storage.retention,
      state: 'stored',
      expiredAt: null,
    };
  }

  /** Whether a document is stored (not expired) under this id, for any key. */
  async isStored(id: string): Promise<boolean> {
    return (await this.deps.store.get(id)) !== undefined;
  }

  /** Takes back a copy kept for a render that then failed (its response was never a success). */
  async discard(id: string): Promise<void> {
    await this.deps.store.remove(id);
  }

  /** A page of documents that have not expired, newest first. */
  list(owner: Owner, limit: number, cursor: string | undefined): Promise<Page<StoredDocument>> {
    const now = this.now().getTime();
    return pageOrBadCursor(() => this.deps.store.page(owner, limit, cursor, now));
  }

  /** Opens a document's PDF: 404 document_not_found (unknown or another key's), 410 document_expired. */
  async open(owner: Owner, id: string): Promise<{ document: StoredDocument; file: PdfReader }> {
    const document = await this.live(owner, id);
    const file = await this.deps.store.openPdf(document);
    // Deleted or expired between the lookup and the open.
    if (!file) return this.live(owner, id).then(() => notFound(id));
    return { document, file };
  }

  /** Deletes a document and its bytes at once; later fetches answer 404. */
  async remove(owner: Owner, id: string): Promise<void> {
    await this.live(owner, id);
    if (!(await this.deps.store.remove(id))) notFound(id);
  }

  /** Expires every document past its retention and forgets tombstones past their time; returns the counts. */
  async sweep(): Promise<{ expired: number; forgotten: number }> {
    const now = this.now();
    const due = await this.deps.store.due(now.getTime(), now.getTime() - this.deps.tombstoneSeconds * 1000);
    let expired = 0;
    for (const document of due.expired) if (await this.deps.store.expire(document.id, now)) expired++;
    for (const tombstone of due.tombstones) await this.deps.store.dropTombstone(tombstone.id);
    return { expired, forgotten: due.tombstones.length };
  }

  /** The stored document if the owner may see it; expires it first when its time has passed. */
  private async live(owner: Owner, id: string): Promise<StoredDocument> {
    const document = await this.deps.store.get(id);
    if (document && (owner === undefined || document.keyId === owner)) {
      const now = this.now();
      if (document.expiresMs > now.getTime()) return document;
      await this.deps.store.expire(id, now);
      return expired(id);
    }
    const tombstone = await this.deps.store.tombstone(id);
    if (tombstone && (owner === undefined || tombstone.keyId === owner)) return expired(id);
    return notFound(id);
  }
}

function notFound(id: string): never {
  throw new ApiError('document_not_found', `Document ${id} was not found.`);
}

function expired(id: string): never {
  throw new ApiError('document_expired', `Document ${id} has expired: its retention period ended and its content was deleted.`);
}
