import { Module } from '@nestjs/common';
import { resilientUpstreamProvider, upstreamHttpModule } from '../common/upstream/upstream-providers';
import { CENSUS_UPSTREAM, CensusGeocoderClient } from './census-geocoder.client';
import { Geocoder } from './geocoder';

@Module({
  imports: [upstreamHttpModule()],
  providers: [
    resilientUpstreamProvider(CENSUS_UPSTREAM, 'geocoder'),
    CensusGeocoderClient,
    { provide: Geocoder, useExisting: CensusGeocoderClient },
  ],
  exports: [Geocoder, CENSUS_UPSTREAM],
})
export class GeocodingModule {}
