import { modelSuite } from './support/suite';
import { addToCartModel, imageUploadModel, signInLinkModel } from './models/small-flows.model';

modelSuite(addToCartModel);
modelSuite(imageUploadModel);
modelSuite(signInLinkModel);
