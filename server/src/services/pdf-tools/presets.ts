// Transform presets: a key's saved sequence of PDF steps (docs/api.md#presets), created, listed,
// replaced and deleted by the key, applied by POST /v1/pdf/transform with preset_id. Steps are
// validated when saved, so applying one never finds a bad step.

import { ApiError } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { transformStepsSchema, type TransformStep } from '../../pdf/transform/steps.ts';
import type { PresetRecord, PresetStore } from '../../stores/presets.ts';

/** At most this many presets per key. */
export const MAX_PRESETS_PER_KEY = 200;

export interface PresetInput {
  name: string;
  steps: TransformStep[];
}

export class PresetsService {
  constructor(
    private readonly store: PresetStore,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Saves a new preset of the key. */
  async create(keyId: string, input: PresetInput): Promise<PresetRecord> {
    if ((await this.store.list(keyId)).length >= MAX_PRESETS_PER_KEY)
      throw new ApiError('invalid_request', `A key may keep at most ${MAX_PRESETS_PER_KEY} presets; delete one first.`);
    const at = this.now().toISOString();
    const record: PresetRecord = { id: newId('pre'), keyId, name: input.name, steps: input.steps, createdAt: at, updatedAt: at };
    await this.store.put(record);
    return record;
  }

  /** The key's presets, oldest first. */
  list(keyId: string): Promise<PresetRecord[]> {
    return this.store.list(keyId);
  }

  /** One preset of the key; 404 preset_not_found otherwise. */
  async get(keyId: string, id: string): Promise<PresetRecord> {
    return (await this.store.get(keyId, id)) ?? notFound(id);
  }

  /** Replaces a preset's name and steps. */
  async replace(keyId: string, id: string, input: PresetInput): Promise<PresetRecord> {
    const record = { ...(await this.get(keyId, id)), name: input.name, steps: input.steps, updatedAt: this.now().toISOString() };
    await this.store.put(record);
    return record;
  }

  /** Deletes a preset; transforms naming it then answer 404. */
  async remove(keyId: string, id: string): Promise<void> {
    if (!(await this.store.remove(keyId, id))) notFound(id);
  }

  /** The preset's steps, as a transform applies them. */
  async steps(keyId: string, id: string): Promise<TransformStep[]> {
    return transformStepsSchema.parse((await this.get(keyId, id)).steps);
  }
}

function notFound(id: string): never {
  throw new ApiError('preset_not_found', `The preset ${id} was not found.`);
}
