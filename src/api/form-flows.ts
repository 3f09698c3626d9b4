/** The registration form's small flows with the app's actors: an image field's upload, the sign-in link. */
import { imageUploadMachine } from '../../machines/registration/image-upload.machine';
import { signInLinkMachine } from '../../machines/registration/sign-in-link.machine';
import { studentActors } from './actors';

export const imageUploadLogic = imageUploadMachine.provide({ actors: { uploadFile: studentActors.uploadFile } });
export const signInLinkLogic = signInLinkMachine.provide({ actors: { requestSignInLink: studentActors.requestSignInLink } });
