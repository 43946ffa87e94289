export * from './wire';
export * from './verdict';
export * from './present';
export * from './check-state';
export * from './verdict-view';
export * from './switches';
export * from './answer';
export * from './fix-actions';
