import { selectSessionExpiredModalOpen, selectSignOutModalOpen } from '../../machines/session/session.selectors';
import { t } from '../i18n/messages';
import { Button, Modal } from '../ui';
import { SessionContext } from './context';

/** The sign-out modal (WHITELIST_USER_DENIED) and the session-expired modal (spec section 6). */
export function SessionModals() {
  const ref = SessionContext.useActorRef();
  const signOut = SessionContext.useSelector(selectSignOutModalOpen);
  const expired = SessionContext.useSelector(selectSessionExpiredModalOpen);
  const confirm = () => ref.send({ type: 'modal.confirm' });
  return (
    <>
      <Modal open={signOut} title={t('signedOutTitle')} dismissable={false} maskClosable={false} maxWidth={480} testId="signout-modal" footer={<Button onClick={confirm}>{t('confirm')}</Button>}>
        <p>{t('signedOutBody')}</p>
      </Modal>
      <Modal open={expired} title={t('sessionExpiredTitle')} dismissable={false} maskClosable={false} maxWidth={480} testId="expired-modal" footer={<Button onClick={confirm}>{t('confirm')}</Button>}>
        <p>{t('sessionExpiredBody')}</p>
      </Modal>
    </>
  );
}
