import { behavioursPlugin } from './behaviours-plugin';
import { cranePlugin } from './plugin';

export default [cranePlugin, behavioursPlugin];
