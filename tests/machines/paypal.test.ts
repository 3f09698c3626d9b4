import { modelSuite } from './support/suite';
import { paypalModel } from './models/paypal.model';

modelSuite(paypalModel);
