import { modelSuite } from './support/suite';
import { checkoutModel } from './models/checkout.model';

modelSuite(checkoutModel);
