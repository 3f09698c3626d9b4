import { modelSuite } from './support/suite';
import { cartModel } from './models/cart.model';

modelSuite(cartModel);
