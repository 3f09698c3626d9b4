import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useId } from 'react';
import { CERTIFICATE_ACCEPT } from '../../../domain/documents/certificate';
import type { CertificateFile } from '../../../machines/documents/withholding-certificate.machine';
import { selectCanChoose, selectCertificate, selectCertificateError, selectCertificatePhase, selectRejection, selectWithheld } from '../../../machines/documents/withholding-certificate.selectors';
import type { OrderWithholding } from '../../../machines/shared/api';
import { actorOptions } from '../../api/actor-options';
import { withholdingCertificateLogic } from '../../api/withholding';
import { money, t, tm } from '../../i18n/messages';

/**
 * An order card's withholding certificate: what was withheld, the file input, the upload's
 * progress and result, and the shop's decision read from the order's data. Renders the machine;
 * sends the chosen file, a retry, and the order's data each time the page reads it again.
 */
export function WithholdingCertificate({ orderId, withholding }: { orderId: number; withholding: OrderWithholding | null }) {
  const ref = useActorRef(withholdingCertificateLogic, { ...actorOptions('withholdingCertificate'), input: { orderId, withholding } });
  useEffect(() => ref.send({ type: 'order.read', withholding }), [ref, withholding]);
  const phase = useSelector(ref, selectCertificatePhase);
  const canChoose = useSelector(ref, selectCanChoose);
  const withheld = useSelector(ref, selectWithheld);
  const certificate = useSelector(ref, selectCertificate);
  const rejection = useSelector(ref, selectRejection);
  const error = useSelector(ref, selectCertificateError);
  const file = useSelector(ref, (s) => s.context.file);
  const inputId = useId();
  if (phase === 'closed' || !withheld) return null;
  return (
    <section className="order-card__withholding" aria-label={t('whtTitle')} data-testid="withholding-certificate" data-phase={phase}>
      <h3>{t('whtTitle')}</h3>
      {phase === 'received' ? (
        <p role="status" data-testid="withholding-received">
          {t('whtReceived')}
        </p>
      ) : (
        <p>{t('whtWithheld', { amount: money(withheld.amount, withheld.currency_code) })}</p>
      )}
      {rejection !== null && phase === 'idle' ? <p role="alert">{t('whtRejected', { reason: rejection })}</p> : null}
      {phase === 'uploading' ? <p role="status">{t('whtUploading', { name: file?.name ?? '' })}</p> : null}
      {phase === 'waiting' ? (
        <p role="status" data-testid="withholding-waiting">
          {t('whtWaiting', { name: certificate?.file_name ?? '' })}
        </p>
      ) : null}
      {error !== null ? (
        <p role="alert" data-testid="withholding-error">
          {phase === 'failed' ? t('whtFailed', { reason: tm(error) }) : tm(error)}
        </p>
      ) : null}
      {phase === 'failed' ? (
        <button type="button" className="tap-target" onClick={() => ref.send({ type: 'upload.retry' })}>
          {t('whtRetry')}
        </button>
      ) : null}
      {canChoose ? (
        <p>
          <label htmlFor={inputId}>{phase === 'waiting' ? t('whtChooseAnother') : t('whtChoose')}</label>{' '}
          <input
            id={inputId}
            type="file"
            accept={CERTIFICATE_ACCEPT}
            data-testid="withholding-file"
            onChange={(e) => {
              const chosen = e.currentTarget.files?.[0];
              e.currentTarget.value = '';
              if (chosen) ref.send({ type: 'file.choose', file: chosen as CertificateFile });
            }}
          />
        </p>
      ) : null}
    </section>
  );
}
