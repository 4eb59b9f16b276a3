import type { PartColumn } from '../answer-part';
import type { LenderDetermination, NearbyLetter } from './determination';

/** `15-06-1489A 2015-06-02 23.0 m; …`: each nearby letter's case number, date and distance, nearest first ("?" where FEMA publishes none). */
export function nearbyLetterCells(letters: readonly NearbyLetter[]): string {
  return letters.map((letter) => `${letter.caseNumber ?? '?'} ${letter.effectiveDate ?? '?'} ${letter.distanceM.toFixed(1)} m`).join('; ');
}

/** The determination's columns of the batch and jobs CSV answers; each cell empty when there is no determination or the value is unknown. */
export const DETERMINATION_COLUMNS: ReadonlyArray<PartColumn<LenderDetermination>> = [
  { name: 'determination_basis', cell: (determination) => determination?.basis },
  { name: 'flood_insurance_available', cell: (determination) => determination?.insurance.available },
  { name: 'nfip_program', cell: (determination) => determination?.insurance.program },
  { name: 'flood_insurance_required', cell: (determination) => determination?.floodInsuranceRequired },
  { name: 'flood_insurance_reason', cell: (determination) => determination?.insurance.reason },
  { name: 'nearby_letters', cell: (determination) => determination?.map.nearbyLetters && nearbyLetterCells(determination.map.nearbyLetters) },
];
