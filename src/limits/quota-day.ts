import { DateTime } from 'luxon';

/** The day a daily quota counts in: its date in the time zone, and when it ends (epoch ms). */
export interface QuotaDayAt {
  date: string;
  endsAt: number;
}

/**
 * Days of a time zone (TIME_ZONE), for the daily quota: it renews at that zone's midnight. The
 * current day is kept until it ends, so a request costs a comparison, not a time-zone calculation.
 * @example new QuotaDays('Asia/Shanghai').at(Date.UTC(2024, 0, 1, 17)) // { date: '2024-01-02', endsAt: Date.UTC(2024, 0, 2, 16) }
 */
export class QuotaDays {
  private current: QuotaDayAt & { startsAt: number } = { date: '', startsAt: 0, endsAt: 0 };

  constructor(private readonly timeZone: string) {}

  at(now: number): QuotaDayAt {
    if (now >= this.current.startsAt && now < this.current.endsAt) return this.current;
    const start = DateTime.fromMillis(now, { zone: this.timeZone }).startOf('day');
    this.current = { date: start.toISODate() ?? '', startsAt: start.toMillis(), endsAt: start.plus({ days: 1 }).toMillis() };
    return this.current;
  }
}
