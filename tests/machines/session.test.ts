import { modelSuite } from './support/suite';
import { sessionModel } from './models/session.model';

modelSuite(sessionModel);
