export * from './build';
export * from './request';
export * from './parse';
export * from './errors';
export * from './settings';
export * from './call';
export * from './runinfo-text';
export * from './from-check';
