import type { Factory } from '../../core/command.js';
import { createVerb } from '../shared/crud.js';
import { RESOURCES } from '../../core/resources.js';

export default (factory: Factory) =>
  createVerb(factory, RESOURCES.assignments, [
    'appraisal assignments create --data @assignment.json',
    'appraisal assignments create -f clientId=CLIENT_ID -f reportType=appraisal_report -f dueDate=2026-03-31 -F fee.amount=3500 -f fee.currency=USD',
  ]);
