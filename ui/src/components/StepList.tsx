// The PDF tools screen's list of transform steps: each with its fields (StepFields), moved up or
// down, removed; new ones added from the list of operations. The server runs them in this order.

import { useState } from 'react';
import { newStep, OPERATIONS, operationLabel, type StepDraft, type StepOp } from '../lib/pdf-steps.ts';
import { Select } from './Select.tsx';
import { StepFields } from './StepFields.tsx';

export function StepList({ steps, onChange }: { steps: StepDraft[]; onChange: (next: StepDraft[]) => void }) {
  const [adding, setAdding] = useState<StepOp>('rotate');
  const move = (from: number, to: number) => {
    const next = [...steps];
    const [moved] = next.splice(from, 1);
    next.splice(to, 0, moved!);
    onChange(next);
  };
  const hasSplit = steps.some((step) => step.op === 'split');
  return (
    <>
      {steps.length === 0 && <p className="muted">No steps yet: add the first one below.</p>}
      <ol className="step-list" aria-label="Steps">
        {steps.map((step, at) => (
          <li key={step.id} className="step-item" aria-label={`Step ${at + 1}: ${operationLabel(step.op)}`}>
            <div className="step-head">
              <span className="strong">
                {at + 1}. {operationLabel(step.op)}
              </span>
              <span className="step-buttons">
                <button type="button" className="button ghost small" aria-label="Move up" disabled={at === 0} onClick={() => move(at, at - 1)}>
                  ↑
                </button>
                <button type="button" className="button ghost small" aria-label="Move down" disabled={at === steps.length - 1} onClick={() => move(at, at + 1)}>
                  ↓
                </button>
                <button type="button" className="button ghost small danger-text" onClick={() => onChange(steps.filter((other) => other.id !== step.id))}>
                  Remove
                </button>
              </span>
            </div>
            <div className="form-grid">
              <StepFields step={step} onChange={(changed) => onChange(steps.map((other) => (other.id === step.id ? changed : other)))} />
            </div>
          </li>
        ))}
      </ol>
      <div className="toolbar">
        <Select
          label="Operation"
          value={adding}
          choices={OPERATIONS.filter((operation) => operation.op !== 'split' || !hasSplit).map(({ op, label }) => ({ value: op, label }))}
          onChange={(op) => setAdding(op as StepOp)}
        />
        <button type="button" className="button" onClick={() => onChange([...steps, newStep(adding === 'split' && hasSplit ? 'rotate' : adding)])}>
          Add step
        </button>
      </div>
    </>
  );
}
