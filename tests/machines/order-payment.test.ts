import { modelSuite } from './support/suite';
import { orderPaymentModel } from './models/order-payment.model';

modelSuite(orderPaymentModel);
