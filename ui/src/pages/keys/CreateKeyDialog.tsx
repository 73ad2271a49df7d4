// The "New API key" dialog: a name, a plan and auto-store; the issued key goes back to the page,
// which shows its secret once.

import { useEffect, useState } from 'react';
import { createKey } from '../../api/keys.ts';
import type { IssuedKey, Plan } from '../../api/types.ts';
import { useAction } from '../../lib/hooks.ts';
import { formatNumber } from '../../lib/format.ts';
import { FormDialog } from '../../components/Dialog.tsx';
import { Field, TextField } from '../../components/Fields.tsx';
import { Select } from '../../components/Select.tsx';

export function CreateKeyDialog({
  open,
  plans,
  onClose,
  onCreated,
}: {
  open: boolean;
  plans: Plan[];
  onClose: () => void;
  onCreated: (key: IssuedKey) => void;
}) {
  const [name, setName] = useState('');
  const [plan, setPlan] = useState('free');
  const [autoStore, setAutoStore] = useState(false);
  const create = useAction(createKey);
  useEffect(() => {
    if (open) {
      setName('');
      setAutoStore(false);
      create.setError(undefined);
    }
  }, [open, create.setError]);
  useEffect(() => {
    if (plans.length > 0 && !plans.some((item) => item.id === plan)) setPlan(plans[0]!.id);
  }, [plans, plan]);

  const submit = async () => {
    const issued = await create.run({ name: name.trim(), plan, auto_store: autoStore });
    if (issued) onCreated(issued);
  };

  return (
    <FormDialog
      open={open}
      title="New API key"
      onClose={onClose}
      onSubmit={() => void submit()}
      error={create.error}
      busy={create.busy}
      submitLabel="Create key"
      busyLabel="Creating…"
    >
      <TextField label="Name" id="new-key-name" value={name} onChange={setName} placeholder="e.g. Billing service" required maxLength={100} />
      <Field label="Plan" id="new-key-plan">
        <Select
          id="new-key-plan"
          value={plan}
          choices={plans.map((item) => ({ value: item.id, label: `${item.name} — ${formatNumber(item.monthly_documents)} documents a month` }))}
          onChange={setPlan}
        />
      </Field>
      <label className="checkbox">
        <input type="checkbox" checked={autoStore} onChange={(event) => setAutoStore(event.target.checked)} />
        <span>
          Auto-store
          <span className="muted block">Keep a copy of every render for the plan’s retention, without store: true.</span>
        </span>
      </label>
    </FormDialog>
  );
}
