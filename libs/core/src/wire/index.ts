import type { z } from 'zod';
import { CheckAnswer } from './check-answer';
import { CheckRequest } from './check-request';
import { CheckResult, DeferredLog } from './check-result';
import { ExecutionLog } from './execution-log';
import { RuntimeInfo } from './runtime-info';

export * from './check-answer';
export * from './check-request';
export * from './check-result';
export * from './execution-log';
export * from './runtime-info';

/**
 * Every wire schema the Python side reads or writes, by the file name it is exported under
 * in python/crane_llm/schema/. pytest validates the kernel's JSON against those files.
 */
export const WIRE_SCHEMAS: Record<string, z.ZodType> = {
  'check-answer': CheckAnswer,
  'check-request': CheckRequest,
  'check-result': CheckResult,
  'deferred-log': DeferredLog,
  'execution-log': ExecutionLog,
  'runtime-info': RuntimeInfo
};
