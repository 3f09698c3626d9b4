import { modelSuite } from './support/suite';
import { scbQrModel } from './models/scb-qr.model';

modelSuite(scbQrModel);
