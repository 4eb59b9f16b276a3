import { AppConfig } from '../../config/app-config';
import { UPSTREAM_BY_NAME, UPSTREAM_CIRCUITS, UPSTREAM_REGISTRY, circuitsOf, upstreamBaseUrls } from './upstream-registry';

describe('the upstream registry', () => {
  it('names every upstream and circuit once: each is a key of its own in /health and a metrics label of its own', () => {
    expect(UPSTREAM_CIRCUITS.map((circuit) => circuit.name)).toEqual([
      'flood_data',
      'flood_data_preliminary',
      'flood_data_pending',
      'coastal_barrier',
      'geocoder',
      'geocoder_point',
      'elevation',
      'openfema',
      'basemap',
      'structures',
    ]);
  });

  it("gives each upstream a base-URL variable of its own, whose default is an https URL of the real service's host", () => {
    const variables = UPSTREAM_REGISTRY.map((upstream) => upstream.baseUrlVariable);
    expect(new Set(variables).size).toBe(variables.length);
    const defaults = upstreamBaseUrls(({ baseUrlVariable }) => new AppConfig()[baseUrlVariable]);
    for (const [variable, url] of Object.entries(defaults)) expect({ variable, protocol: new URL(url).protocol }).toEqual({ variable, protocol: 'https:' });
    expect(defaults.NFHL_BASE_URL).toBe('https://hazards.fema.gov/arcgis/rest/services/public/NFHL/MapServer');
  });

  it("gives an upstream its own circuit first, then its other operations' circuits", () => {
    expect(circuitsOf('geocoder')).toEqual(['geocoder', 'geocoder_point']);
    expect(circuitsOf('flood_data')).toEqual(['flood_data']);
  });

  it('looks an upstream up by name', () => {
    expect(UPSTREAM_BY_NAME.elevation).toMatchObject({ name: 'elevation', baseUrlVariable: 'ELEVATION_BASE_URL', bodyCapBytes: 64 * 1024 });
    expect(UPSTREAM_BY_NAME.structures).toMatchObject({ name: 'structures', baseUrlVariable: 'STRUCTURES_BASE_URL', bodyCapBytes: 8 * 1024 * 1024 });
  });

  it("points USA Structures at the FeatureServer's layer itself, FEMA's view of it", () => {
    expect(new AppConfig().STRUCTURES_BASE_URL).toBe('https://services2.arcgis.com/FiaPA4ga0iQKduv3/arcgis/rest/services/USA_Structures_View/FeatureServer/0');
  });
});
