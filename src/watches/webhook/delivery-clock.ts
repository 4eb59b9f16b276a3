/**
 * The time the webhook deliveries go by: when an attempt is made (and signed), when the next one is due, when the
 * receiver last acknowledged. A provider of its own, so that a test can drive the retry schedule's days in seconds:
 * it moves this clock and lets BullMQ's delayed retries through as the clock passes them.
 */
export class DeliveryClock {
  now(): Date {
    return new Date();
  }
}
