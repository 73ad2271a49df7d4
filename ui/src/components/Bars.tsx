// Usage against a plan's allowance, and batch progress.

import { formatNumber } from '../lib/format.ts';

export function UsageBar({ used, limit }: { used: number; limit: number }) {
  const share = limit > 0 ? Math.min(1, used / limit) : 1;
  const tone = share >= 1 ? 'danger' : share >= 0.8 ? 'warning' : 'ok';
  return (
    <div className="usage" title={`${formatNumber(used)} of ${formatNumber(limit)} documents this month`}>
      {/* biome-ignore lint/a11y/useSemanticElements: a native <meter> cannot take the plan's tone classes alike in every browser; role and aria-value* expose the same numbers */}
      <div className={`bar ${tone}`} role="meter" aria-valuemin={0} aria-valuemax={limit} aria-valuenow={used} aria-label="Documents this month">
        <span style={{ width: `${share * 100}%` }} />
      </div>
      <span className="usage-text">
        <strong>{formatNumber(used)}</strong> / {formatNumber(limit)}
      </span>
    </div>
  );
}

export function ProgressBar({ done, failed, total }: { done: number; failed: number; total: number }) {
  const succeeded = Math.max(0, done - failed);
  const pct = (n: number) => (total > 0 ? (n / total) * 100 : 0);
  return (
    <div className="progress" role="progressbar" aria-valuemin={0} aria-valuemax={total} aria-valuenow={done} aria-label={`${done} of ${total} items done`}>
      <span className="progress-ok" style={{ width: `${pct(succeeded)}%` }} />
      <span className="progress-failed" style={{ width: `${pct(failed)}%` }} />
    </div>
  );
}

export function StatusPill({ status }: { status: string }) {
  return <span className={`pill pill-${status}`}>{status}</span>;
}
