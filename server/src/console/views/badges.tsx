// Statuses as words with a colour, never colour alone.
import type { VNode } from 'preact';

const TONES: Record<string, 'ok' | 'warn' | 'bad' | 'muted'> = {
  active: 'ok',
  delivered: 'ok',
  applied: 'ok',
  completed: 'ok',
  applied_with_warnings: 'warn',
  pending: 'warn',
  sending: 'warn',
  queued: 'warn',
  running: 'warn',
  failing: 'bad',
  failed: 'bad',
  refused: 'bad',
  disabled: 'bad',
  revoked: 'muted',
  cancelled: 'muted',
  duplicate: 'muted',
};

export function Badge({ status }: { status: string }): VNode {
  return <span class={`badge ${TONES[status] ?? 'muted'}`}>{status.replace(/_/g, ' ')}</span>;
}
