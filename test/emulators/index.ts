/** The upstream emulators (FEMA NFHL, preliminary and pending MapServers, USFWS CBRS MapServer, Census geocoder, USGS elevation, OpenFEMA, USGS basemap, FEMA/ORNL USA Structures) and their demo map. */
export * from './geometry';
export * from './demo-map';
export * from './emulator-core';
export * from './map-data';
export * from './arcgis-query';
export * from './arcgis-emulator';
export * from './map-export';
export * from './basemap-emulator';
export * from './arcgis-service-emulator';
export * from './census-emulator';
export * from './epqs-emulator';
export * from './community-status-book';
export * from './openfema-emulator';
export * from './structure-footprints';
export * from './structures-emulator';
export { startEmulators, exampleUrls } from './offline';
export type { StartEmulatorsOptions, RunningEmulators, ServiceEmulatorOptions } from './offline';
export * from './area-records';
