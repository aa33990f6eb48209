import { ApiError } from '../../lib/api';

/** Waits between tries while the server cannot be reached: 1, 2, 4… seconds, at most 30. */
const BACKOFF_FIRST_MS = 1000;
const BACKOFF_MAX_MS = 30_000;

/** A lost connection (or a proxy that cannot reach the server): the photo is tried again, not failed. */
export function isConnectionLost(err: unknown): boolean {
  return err instanceof ApiError && (err.status === 0 || err.status === 502 || err.status === 503 || err.status === 504);
}

/**
 * The upload queue's pause while the connection is lost: it tries again after a wait that
 * doubles with each failed try, or at once when the browser says it is online again.
 */
export class ReconnectWait {
  /** When the queue tries again, and how many tries in a row failed. */
  paused: { until: number; attempt: number } | null = null;
  /** Set when the queue resumed after a pause, until the next photo is sent. */
  resumed = false;
  private failedTries = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private countdown: ReturnType<typeof setInterval> | null = null;
  private readonly onOnline = () => {
    if (!this.paused) return;
    this.stop();
    this.resumed = true;
    this.onResume();
    this.onChange();
  };

  constructor(
    private readonly onChange: () => void,
    private readonly onResume: () => void,
  ) {}

  lost(): void {
    if (this.paused) return;
    this.failedTries += 1;
    const wait = Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** (this.failedTries - 1));
    this.paused = { until: Date.now() + wait, attempt: this.failedTries };
    this.resumed = false;
    this.timer = setTimeout(() => this.resume(), wait);
    this.countdown = setInterval(this.onChange, 1000);
    globalThis.addEventListener?.('online', this.onOnline);
    this.onChange();
  }

  succeeded(): void {
    this.failedTries = 0;
    this.resumed = false;
  }

  /** Whole seconds until the next try. */
  secondsLeft(): number {
    return this.paused ? Math.max(0, Math.ceil((this.paused.until - Date.now()) / 1000)) : 0;
  }

  stop(): void {
    this.paused = null;
    if (this.timer) clearTimeout(this.timer);
    if (this.countdown) clearInterval(this.countdown);
    this.timer = null;
    this.countdown = null;
    globalThis.removeEventListener?.('online', this.onOnline);
  }

  private resume(): void {
    this.stop();
    // Still offline as far as the browser knows: wait longer (the online event resumes at once).
    if (globalThis.navigator?.onLine === false) {
      this.lost();
      return;
    }
    this.resumed = true;
    this.onResume();
    this.onChange();
  }
}
