import { modelSuite } from './support/suite';
import { cardReturnModel } from './models/card-return.model';

modelSuite(cardReturnModel);
