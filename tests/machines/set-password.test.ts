import { modelSuite } from './support/suite';
import { setPasswordModel } from './models/set-password.model';

modelSuite(setPasswordModel);
