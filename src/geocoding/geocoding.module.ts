import { Module } from '@nestjs/common';
import { resilientUpstreamProvider, upstreamHttpModule } from '../common/upstream/upstream-providers';
import { BatchGeocoder, CensusBatchGeocoder } from './census-batch-geocoder';
import { CENSUS_UPSTREAM, CensusGeocoderClient } from './census-geocoder.client';
import { Geocoder } from './geocoder';

@Module({
  imports: [upstreamHttpModule()],
  providers: [
    // Address geocoding on the `geocoder` circuit, county and ZIP of a point on `geocoder_point` (both in its registry entry).
    resilientUpstreamProvider(CENSUS_UPSTREAM, 'geocoder'),
    CensusGeocoderClient,
    { provide: Geocoder, useExisting: CensusGeocoderClient },
    CensusBatchGeocoder,
    { provide: BatchGeocoder, useExisting: CensusBatchGeocoder },
  ],
  exports: [Geocoder, BatchGeocoder, CENSUS_UPSTREAM],
})
export class GeocodingModule {}
