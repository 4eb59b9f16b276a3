import { Module } from '@nestjs/common';
import { resilientUpstreamProvider, upstreamHttpModule } from '../common/upstream/upstream-providers';
import { CENSUS_UPSTREAM, CensusGeocoderClient } from './census-geocoder.client';
import { Geocoder } from './geocoder';

@Module({
  imports: [upstreamHttpModule()],
  providers: [
    // Address geocoding on the `geocoder` circuit, county and ZIP of a point on `geocoder_point`.
    resilientUpstreamProvider(CENSUS_UPSTREAM, 'geocoder', ['geocoder_point']),
    CensusGeocoderClient,
    { provide: Geocoder, useExisting: CensusGeocoderClient },
  ],
  exports: [Geocoder, CENSUS_UPSTREAM],
})
export class GeocodingModule {}
