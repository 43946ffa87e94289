import { cranePlugin } from './plugin';

export default [cranePlugin];
