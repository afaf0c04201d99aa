// What of an unexpected error may be logged. Database drivers put the failing SQL with its
// bound values (patient data) into the message, so the message is never logged: only the
// error's class, its driver code and the stack frames.
export interface SafeErrorSummary {
  type: string;
  code?: string;
  frames: string[];
}

export function safeErrorSummary(error: unknown): SafeErrorSummary {
  const e = error as { name?: string; constructor?: { name?: string }; code?: unknown; stack?: string } | null;
  const frames = (e?.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line)).slice(0, 12).map((l) => l.trim());
  return {
    type: e?.constructor?.name ?? e?.name ?? typeof error,
    ...(typeof e?.code === 'string' || typeof e?.code === 'number' ? { code: String(e.code) } : {}),
    frames,
  };
}
