export { SessionContext, SessionProvider, sessionLogic } from './session';
export { LoginForm, type LoginFormProps } from './LoginForm';
export { SessionModals } from './SessionModals';
