// The e-invoice rules thread's entry (check/rules-pool.ts): reads one XML into the EN 16931 model
// and runs a rule set over it, off the server's event loop, one invoice at a time.

import { serveTasks } from '../../worker-pool.ts';
import { runRuleTask, type RuleTask } from './run-rule-task.ts';
import type { Finding } from '../rules/rule.ts';

serveTasks<RuleTask, Finding[]>(runRuleTask);
