// The events' clock (server/domain/events/emit-event.ts): strictly increasing per process for units of work that run
// at "now", and a unit of work at a chosen time (a job driven a minute ahead, as the reconciler's tests do) neither
// moves it nor is moved by it — else every later event of the process would carry that future time and its deliveries
// would not be due (a webhook never sent, a queue-depth gauge at 0).
import { describe, expect, it } from "vitest";
import { CHOSEN_TIME_MS, eventClock } from "../../server/domain/events/emit-event.ts";

describe("eventClock", () => {
  it("orders events that share a clock: each 1 ms after the last, across units of work", () => {
    const now = new Date();
    const first = eventClock(now, {}).getTime();
    const second = eventClock(now, {}).getTime();
    const third = eventClock(now, {}).getTime();
    expect(second).toBe(first + 1);
    expect(third).toBe(second + 1);
    expect(first).toBeGreaterThanOrEqual(now.getTime());
  });

  it("orders a chosen time's events within its unit of work, and the next event at now is not pushed after it", () => {
    const uow = {};
    const ahead = new Date(Date.now() + CHOSEN_TIME_MS + 30_000);
    expect(eventClock(ahead, uow).getTime()).toBe(ahead.getTime());
    expect(eventClock(ahead, uow).getTime()).toBe(ahead.getTime() + 1);
    expect(eventClock(ahead, {}).getTime()).toBe(ahead.getTime());
    const now = new Date();
    const next = eventClock(now, {}).getTime();
    expect(next).toBeLessThan(now.getTime() + 1_000);
    const past = new Date(Date.now() - CHOSEN_TIME_MS - 30_000);
    expect(eventClock(past, {}).getTime()).toBe(past.getTime());
    expect(eventClock(new Date(), {}).getTime()).toBeGreaterThan(next);
  });
});
