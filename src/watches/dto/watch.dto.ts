import { ApiProperty } from '@nestjs/swagger';
import { nullableString } from '../../common/nullable-api-property';

/** A time (ISO 8601, UTC), or null. */
const nullableTime = (description: string, example: string | null) => ApiProperty({ type: String, nullable: true, format: 'date-time', description, example });
import { FINGERPRINT_FIELDS, WATCH_EVENT_KINDS, type WatchEventKind } from '../watch-fingerprint';

const ID = { description: "The watch's id (a UUID), as in its Location.", example: '7c9e6679-7425-40de-944b-e07fc1f90ae7' };
const STATUS = {
  enum: ['baselining', 'watching', 'stopped'],
  description:
    'baselining (its locations are being answered a first time), watching (swept every WATCH_SWEEP_INTERVAL_SECONDS), stopped (by DELETE; its data deleted).',
};

export class WatchWebhookSecretDto {
  @ApiProperty({ description: 'The URL events are POSTed to.', example: 'https://servicing.example.com/flood-events' })
  url: string;

  @ApiProperty({
    description: 'The signing secret (Standard Webhooks, whsec_ then base64), shown this once only: keep it to verify each delivery (docs/webhooks.md).',
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  })
  secret: string;
}

/** The 201 answer to a new watch. */
export class WatchCreatedDto {
  @ApiProperty(ID)
  id: string;

  @ApiProperty({ enum: ['baselining'], description: 'A new watch answers each of its locations once (its baseline), then watches them.' })
  status: 'baselining';

  @ApiProperty({ description: 'Locations watched.', example: 1200 })
  total: number;

  @ApiProperty({ type: WatchWebhookSecretDto, nullable: true, description: 'The webhook and its secret (shown only here); null without a webhook.' })
  webhook: WatchWebhookSecretDto | null;
}

export class WatchLocationCountsDto {
  @ApiProperty({ description: 'Locations watched.', example: 1200 })
  total: number;
  @ApiProperty({ description: 'Locations answered at least once (their fingerprint is kept).', example: 1197 })
  answered: number;
  @ApiProperty({ description: 'Locations that cannot be answered (an address with no match, a point FEMA does not map): not re-checked.', example: 2 })
  unanswerable: number;
  @ApiProperty({
    description: 'Locations not answered yet (their baseline is under way, or an upstream failed for them: the next sweep tries again).',
    example: 1,
  })
  baselining: number;
}

export class WatchDeliveriesDto {
  @ApiProperty({ description: 'Events delivered (the receiver answered 2xx).', example: 14 })
  delivered: number;
  @ApiProperty({ description: 'Delivery attempts that failed (each retried).', example: 3 })
  failedAttempts: number;
  @ApiProperty({ description: 'Events given up after 3 days of retries (still in the feed).', example: 0 })
  abandoned: number;
  @ApiProperty({ description: 'Events not delivered yet.', example: 0 })
  pending: number;
}

export class WatchWebhookStateDto {
  @ApiProperty({ example: 'https://servicing.example.com/flood-events' })
  url: string;
  @nullableTime('When the receiver last answered 2xx.', '2026-11-28T06:00:04.112Z')
  lastSuccessAt: string | null;
  @ApiProperty({ description: 'Failed attempts in a row for the event being delivered (0 when all is well).', example: 0 })
  failures: number;
  @nullableTime('When the failed event is sent again.', null)
  nextRetryAt: string | null;
  @nullableString('Why the last attempt failed.', null)
  lastError: string | null;
}

/** GET /flood-zone/watches/{id}. */
export class WatchStatusDto {
  @ApiProperty(ID)
  id: string;
  @nullableString("The watch's name, as given.", 'Servicing portfolio 2026-Q4')
  name: string | null;
  @ApiProperty({ ...STATUS, example: 'watching' })
  status: string;
  @ApiProperty({ example: '2026-11-27T06:00:00.000Z' })
  createdAt: string;
  @ApiProperty({ type: WatchLocationCountsDto })
  locations: WatchLocationCountsDto;
  @nullableTime('When the last sweep that covered this watch began.', '2026-11-28T06:00:00.000Z')
  lastSweepAt: string | null;
  @nullableTime('When the next sweep is due (null once stopped).', '2026-11-29T06:00:00.000Z')
  nextSweepAt: string | null;
  @nullableTime('When every location was last answered again (the baseline counts).', '2026-11-27T06:05:00.000Z')
  lastFullCheckAt: string | null;
  @ApiProperty({ description: 'Events written so far.', example: 14 })
  events: number;
  @ApiProperty({ type: WatchDeliveriesDto, nullable: true, description: 'Null without a webhook.' })
  deliveries: WatchDeliveriesDto | null;
  @ApiProperty({ type: WatchWebhookStateDto, nullable: true, description: "The webhook's state; null without a webhook." })
  webhook: WatchWebhookStateDto | null;
}

const FINGERPRINT_DESCRIPTION = `The fingerprint fields that changed (only those): ${FINGERPRINT_FIELDS.join(', ')}. See docs/watches.md.`;

/** One event: the change of one location's answer found by a sweep (the feed's item and the webhook's body). */
export class WatchEventDto {
  @ApiProperty({
    description: 'The event id, in order within the watch and stable: the feed pages by it, the webhook sends it as webhook-id.',
    example: '1764309600123-0',
  })
  id: string;
  @ApiProperty(ID)
  watchId: string;
  @ApiProperty({ description: "The location's id, as given.", example: 'loan-000123' })
  locationId: string;
  @ApiProperty({
    enum: WATCH_EVENT_KINDS,
    description: 'The most consequential of the changes, in this order: ' + WATCH_EVENT_KINDS.join(', ') + '.',
    example: 'entered_sfha',
  })
  kind: WatchEventKind;
  @ApiProperty({ type: 'object', additionalProperties: true, description: FINGERPRINT_DESCRIPTION, example: { zones: ['X'], inSfha: false } })
  before: Record<string, unknown>;
  @ApiProperty({ type: 'object', additionalProperties: true, description: FINGERPRINT_DESCRIPTION, example: { zones: ['AE'], inSfha: true } })
  after: Record<string, unknown>;
  @ApiProperty({ example: '2026-11-28T06:03:12.000Z' })
  detectedAt: string;
  @nullableString('The effective date FEMA gives the change (YYYY-MM-DD), when known.', '2026-10-01')
  effectiveDate: string | null;
  @ApiProperty({
    description: 'What the change means; entered_sfha states the lender’s 45-day duty.',
    example: 'FEMA now maps this building into the Special Flood Hazard Area…',
  })
  note: string;
}

/** GET /flood-zone/watches/{id}/events. */
export class WatchEventPageDto {
  @ApiProperty(ID)
  watchId: string;
  @ApiProperty({ type: [WatchEventDto] })
  events: WatchEventDto[];
  @nullableString('The `after` of the next page (the last event here, or the one asked after when none came); null before the first event.', '1764309600123-0')
  next: string | null;
}
