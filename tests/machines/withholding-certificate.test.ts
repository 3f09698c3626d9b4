import { modelSuite } from './support/suite';
import { withholdingCertificateModel } from './models/withholding-certificate.model';

modelSuite(withholdingCertificateModel);
