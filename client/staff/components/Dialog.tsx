/**
 * The staff dashboard's form dialogs (issue 21: new booking, edit, move, complete): a native modal
 * <dialog> (the page behind is inert, focus stays inside; Escape, the X button and Cancel close
 * it) with its title, the server's refusal when there is one, the fields in one column and the
 * buttons at the foot. On a phone it takes the whole screen.
 */
import { useEffect, useRef, type FormEvent, type ReactNode } from 'react';
import { Icon } from '../../components/Icon.tsx';
import './BookingModal.css';
import './Dialog.css';

export interface DialogProps {
  /** Names the title's id (`${id}-title`). */
  id: string;
  title: ReactNode;
  /** The X button's accessible name, e.g. "Close without saving". */
  closeLabel: string;
  onClose(): void;
  /** Given: the fields and the buttons are one form, checked by the server (no native validation). */
  onSubmit?(event: FormEvent): void;
  /** What the server refused, shown as an alert above the fields. */
  refusal?: string | null;
  className?: string;
  /** A form's buttons: Cancel, then `otherActions`, then the submit button with this label (disabled while `busy`). */
  submitLabel?: string;
  busy?: boolean;
  otherActions?: ReactNode;
  /** The foot's buttons when they are not a form's. */
  foot?: ReactNode;
  children: ReactNode;
}

export function Dialog({ id, title, closeLabel, onClose, onSubmit, refusal, className, submitLabel, busy = false, otherActions, foot, children }: DialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
  }, []);
  // A refusal is at the top and the buttons at the foot: on a phone it would be out of sight.
  const refusalNotice = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (refusal) refusalNotice.current?.scrollIntoView({ block: 'nearest' });
  }, [refusal]);
  const content = (
    <>
      <div className="modal-head">
        <h2 id={`${id}-title`}>{title}</h2>
        <button type="button" className="icon-button" aria-label={closeLabel} onClick={onClose}>
          <Icon name="close" />
        </button>
      </div>
      <div className="modal-body form">
        {refusal && (
          <p ref={refusalNotice} className="notice notice-error" role="alert">
            {refusal}
          </p>
        )}
        {children}
      </div>
      <div className="modal-foot">
        {foot ?? (
          <>
            <button type="button" className="button button-ghost" onClick={onClose}>
              Cancel
            </button>
            {otherActions}
            <button type="submit" className="button button-accent" disabled={busy}>
              {submitLabel}
            </button>
          </>
        )}
      </div>
    </>
  );
  return (
    <dialog ref={dialog} className={`booking-modal form-dialog ${className ?? ''}`.trim()} aria-labelledby={`${id}-title`} onClose={onClose} onCancel={onClose}>
      {onSubmit ? (
        <form onSubmit={onSubmit} noValidate>
          {content}
        </form>
      ) : (
        content
      )}
    </dialog>
  );
}
