import type { Factory } from '../../core/command.js';
import { updateVerb } from '../shared/crud.js';
import { RESOURCES } from '../../core/resources.js';

export default (factory: Factory) =>
  updateVerb(factory, RESOURCES.assignments, [
    'appraisal assignments update ID -f status=accepted   # the service decides which changes are allowed',
    'appraisal assignments update ID -f dueDate=2026-04-15 -F fee.amount=4200',
  ]);
