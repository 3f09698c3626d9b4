import { modelSuite } from './support/suite';
import { orderWatchModel } from './models/order-watch.model';

modelSuite(orderWatchModel);
