/**
 * The live stream: one EventSource per tab on /api/events. Data changes arrive as
 * `change` events `{topic, id, op}`; the end of this tab's session arrives as `session`.
 */
export interface ChangeEvent {
  topic: string;
  id: string | null;
  op: string;
}

export interface LiveHandlers {
  onChange: (event: ChangeEvent) => void;
  onSessionEnded: (reason: string) => void;
}

export function connectLive(handlers: LiveHandlers): () => void {
  const source = new EventSource('/api/events');
  // After a dropped stream (a restarted or different server instance) changes may have been
  // missed while it was away: refresh everything once.
  let opened = false;
  source.addEventListener('open', () => {
    if (opened) handlers.onChange({ topic: '*', id: null, op: 'resync' });
    opened = true;
  });
  source.addEventListener('change', (e) => {
    try {
      handlers.onChange(JSON.parse((e as MessageEvent).data) as ChangeEvent);
    } catch {
      /* ignore malformed event */
    }
  });
  source.addEventListener('session', (e) => {
    let reason = 'session_ended';
    try {
      reason = (JSON.parse((e as MessageEvent).data) as { reason?: string }).reason ?? reason;
    } catch {
      /* default */
    }
    source.close();
    handlers.onSessionEnded(reason);
  });
  return () => source.close();
}
