import { useEffect, useState } from 'react';
import { TIMINGS } from '../../../common/limits';

const TIME = new Intl.DateTimeFormat('en-PH', { timeZone: 'Asia/Manila', hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: true });
const DATE = new Intl.DateTimeFormat('en-PH', { timeZone: 'Asia/Manila', weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' });

/** The Login screen's clock, in the department's time zone, refreshed every second. */
export function LiveClock() {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), TIMINGS.loginClockRefreshMs);
    return () => clearInterval(timer);
  }, []);
  return (
    <div className="text-right text-white drop-shadow" aria-live="off">
      <time dateTime={now.toISOString()} className="block text-3xl font-semibold tabular-nums" data-testid="login-clock">{TIME.format(now)}</time>
      <span className="text-sm opacity-90">{DATE.format(now)}</span>
    </div>
  );
}
