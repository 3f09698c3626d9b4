import { modelSuite } from './support/suite';
import { omiseCardModel } from './models/omise-card.model';

modelSuite(omiseCardModel);
