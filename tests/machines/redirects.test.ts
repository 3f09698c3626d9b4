import { modelSuite } from './support/suite';
import { gbPrimeCardModel, paySolutionsModel, twoC2pCardModel, twoC2pLinkModel } from './models/redirects.model';

modelSuite(twoC2pLinkModel);
modelSuite(gbPrimeCardModel);
modelSuite(twoC2pCardModel);
modelSuite(paySolutionsModel);
