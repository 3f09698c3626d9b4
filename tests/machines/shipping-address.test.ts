import { modelSuite } from './support/suite';
import { shippingAddressModel } from './models/shipping-address.model';

modelSuite(shippingAddressModel);
