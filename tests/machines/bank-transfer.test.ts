import { modelSuite } from './support/suite';
import { bankTransferModel } from './models/bank-transfer.model';

modelSuite(bankTransferModel);
