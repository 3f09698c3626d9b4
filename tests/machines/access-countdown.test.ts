import { modelSuite } from './support/suite';
import { accessCountdownModel } from './models/access-countdown.model';

modelSuite(accessCountdownModel);
