/** The upstream emulators (FEMA NFHL MapServer, Census geocoder) and their demo map. */
export * from './geometry';
export * from './demo-map';
export * from './emulator-core';
export * from './arcgis-emulator';
export * from './census-emulator';
export { startEmulators, exampleUrls } from './offline';
export type { StartEmulatorsOptions, RunningEmulators } from './offline';
