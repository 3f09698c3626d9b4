import { modelSuite } from './support/suite';
import { gbPrimePromptPayModel, omisePromptPayModel } from './models/promptpay.model';

modelSuite(omisePromptPayModel);
modelSuite(gbPrimePromptPayModel);
