import type { PartColumn } from '../answer-part';
import type { LenderDetermination } from './determination';

/** The determination's columns of the batch and jobs CSV answers; each cell empty when there is no determination or the value is unknown. */
export const DETERMINATION_COLUMNS: ReadonlyArray<PartColumn<LenderDetermination>> = [
  { name: 'determination_basis', cell: (determination) => determination?.basis },
  { name: 'flood_insurance_available', cell: (determination) => determination?.insurance.available },
  { name: 'nfip_program', cell: (determination) => determination?.insurance.program },
  { name: 'flood_insurance_required', cell: (determination) => determination?.floodInsuranceRequired },
];
