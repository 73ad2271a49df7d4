// Whether a screen follows the admin event stream: live, reconnecting, or polling without it.

export type LiveState = 'live' | 'reconnecting' | 'unavailable' | 'connecting';

export function LiveDot({ state }: { state: LiveState }) {
  return (
    <span className={`live-dot ${state}`}>
      {state === 'live' ? 'Live' : state === 'unavailable' ? 'Polling' : state === 'reconnecting' ? 'Reconnecting…' : 'Connecting…'}
    </span>
  );
}
