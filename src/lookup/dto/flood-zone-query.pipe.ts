import { Injectable, PipeTransform } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { ValidationError, validateSync } from 'class-validator';
import { ApiError } from '../../common/api-error';
import { FloodZoneQueryDto, RANGE_CONSTRAINTS } from './flood-zone-query.dto';

/** What a lookup is asked for, once the parameters are valid. */
export type LocationQuery = { kind: 'address'; address: string } | { kind: 'point'; lat: number; lon: number };

const invalid = (message: string) => new ApiError(400, 'INVALID_PARAMETERS', message);

/**
 * Checks GET /flood-zone parameters in the CONTRACT section 2 order: the first rule broken decides
 * the answer (400 for steps 1-5, 422 only for an in-format coordinate out of range).
 */
@Injectable()
export class FloodZoneQueryPipe implements PipeTransform<Record<string, unknown>, LocationQuery> {
  transform(raw: Record<string, unknown>): LocationQuery {
    const given = (name: string) => raw[name] !== undefined;
    if (!given('address') && !given('lat') && !given('lon')) {
      throw invalid('Give an address, or both lat and lon.');
    }
    if (given('address') && (given('lat') || given('lon'))) {
      throw invalid('Give either address, or lat and lon, not both.');
    }
    const query = plainToInstance(FloodZoneQueryDto, { address: raw.address, lat: raw.lat, lon: raw.lon });
    const errors = validateSync(query);
    const firstMessage = (property: string, keep: (constraint: string) => boolean) => {
      const error = errors.find((e: ValidationError) => e.property === property);
      const constraint = Object.keys(error?.constraints ?? {}).find(keep);
      return constraint ? error?.constraints?.[constraint] : undefined;
    };
    const isFormat = (constraint: string) => !RANGE_CONSTRAINTS.has(constraint);

    if (given('address')) {
      const problem = firstMessage('address', () => true);
      if (problem) throw invalid(problem);
      return { kind: 'address', address: query.address as string };
    }
    if (!given('lat') || !given('lon')) throw invalid('lat and lon must be given together.');
    const formatProblem = firstMessage('lat', isFormat) ?? firstMessage('lon', isFormat);
    if (formatProblem) throw invalid(formatProblem);
    const rangeProblem = firstMessage('lat', () => true) ?? firstMessage('lon', () => true);
    if (rangeProblem) throw new ApiError(422, 'COORDINATES_OUT_OF_RANGE', rangeProblem);
    return { kind: 'point', lat: query.lat as number, lon: query.lon as number };
  }
}
