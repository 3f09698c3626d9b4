import { modelSuite } from './support/suite';
import { taxGateModel } from './models/tax-gate.model';

modelSuite(taxGateModel);
