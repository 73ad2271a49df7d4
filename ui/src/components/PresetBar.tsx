// Presets on the PDF tools screen: a key's saved sequences of steps (/admin/v1/pdf/presets). Apply
// loads a preset's steps into the list (to run, change or preview them); save keeps the list as a
// preset of the chosen key, which that key applies with preset_id.

import { useState } from 'react';
import { deletePreset, listPresets, savePreset, type TransformStep } from '../api/pdf-transform.ts';
import type { KeyRecord } from '../api/types.ts';
import { useAction, useLoad } from '../lib/hooks.ts';
import { KeySelect } from './KeySelect.tsx';
import { ErrorNote } from './Page.tsx';
import { Select } from './Select.tsx';

export function PresetBar({
  keys,
  steps,
  onApply,
}: {
  keys: KeyRecord[];
  /** The list as the server takes it; throws when a step cannot be read (shown here). */
  steps: () => TransformStep[];
  onApply: (steps: TransformStep[]) => void;
}) {
  const [keyId, setKeyId] = useState('');
  const owner = keyId || keys[0]?.id || '';
  const presets = useLoad((signal) => (owner ? listPresets(owner, signal) : Promise.resolve([])), [owner]);
  const [chosen, setChosen] = useState('');
  const [name, setName] = useState('');
  // The name of the preset just saved, said as "Saved" until the list or the name changes.
  const [saved, setSaved] = useState('');
  const preset = presets.data?.find((item) => item.id === chosen) ?? presets.data?.[0];
  const save = useAction(async () => {
    const saved = await savePreset(owner, name.trim(), steps());
    presets.setData((list) => [...(list ?? []), saved]);
    setChosen(saved.id);
    setName('');
    setSaved(saved.name);
  });
  const remove = useAction(async () => {
    if (!preset) return;
    await deletePreset(owner, preset.id);
    presets.setData((list) => list?.filter((item) => item.id !== preset.id));
    setChosen('');
  });
  if (keys.length === 0) return <p className="muted small">Presets belong to an API key: create a key to save one.</p>;
  return (
    <>
      <div className="toolbar">
        <KeySelect id="preset-key" label="Presets of" keys={keys} value={owner} onChange={setKeyId} />
        <Select
          label="Preset"
          value={preset?.id ?? ''}
          choices={(presets.data ?? []).map((item) => ({ value: item.id, label: `${item.name} (${item.steps.length} steps)` }))}
          disabled={!presets.data?.length}
          onChange={(next) => {
            setChosen(next);
            setSaved('');
          }}
        />
        <button type="button" className="button" disabled={!preset} onClick={() => preset && onApply(preset.steps)}>
          Apply preset
        </button>
        <button type="button" className="button ghost danger-text" disabled={!preset || remove.busy} onClick={() => void remove.run()}>
          Delete preset
        </button>
      </div>
      <div className="toolbar">
        <input
          className="input"
          aria-label="Preset name"
          placeholder="Name of a new preset"
          value={name}
          maxLength={200}
          onChange={(event) => {
            setName(event.target.value);
            setSaved('');
          }}
        />
        <button type="button" className="button" disabled={!name.trim() || save.busy} onClick={() => void save.run()}>
          Save steps as preset
        </button>
        {saved && (
          <span className="muted small" role="status">
            Saved “{saved}”
          </span>
        )}
      </div>
      <ErrorNote>{presets.error ?? save.error ?? remove.error}</ErrorNote>
    </>
  );
}
