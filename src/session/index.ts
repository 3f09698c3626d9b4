export { SessionContext, useOptionalSessionRef, type SessionActorRef } from './context';
export { SessionProvider, sessionLogic, startSession } from './session';
export { LoginForm, type LoginFormProps } from './LoginForm';
export { SessionModals } from './SessionModals';
export { useReadAgainOnLogInOut } from './read-again';
