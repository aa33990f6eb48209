import { useEffect, useState } from 'react';
import { TIMINGS } from '../../../common/limits';
import { manilaClock, manilaLongDate } from '../../../common/manila-time';

/** The Login screen's clock, in the department's time zone, refreshed every second. */
export function LiveClock() {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), TIMINGS.loginClockRefreshMs);
    return () => clearInterval(timer);
  }, []);
  return (
    <div className="text-right text-white drop-shadow" aria-live="off">
      <time dateTime={now.toISOString()} className="block text-3xl font-semibold tabular-nums" data-testid="login-clock">
        {manilaClock(now)}
      </time>
      <span className="text-sm opacity-90">{manilaLongDate(now)}</span>
    </div>
  );
}
