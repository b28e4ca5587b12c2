import { useEffect, useRef, type FormEvent, type ReactNode } from 'react';

interface Props {
  open: boolean;
  title: string;
  onClose: () => void;
  onSubmit: () => void;
  submitLabel: string;
  submitClass?: string;
  busy?: boolean;
  children: ReactNode;
}

/** A modal form on the native `<dialog>` (focus trap, Escape to cancel). */
export function ModalDialog({
  open,
  title,
  onClose,
  onSubmit,
  submitLabel,
  submitClass,
  busy,
  children,
}: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit();
  };
  return (
    <dialog ref={ref} className="dialog" aria-label={title} onClose={onClose} onCancel={onClose}>
      <form onSubmit={submit}>
        <h2>{title}</h2>
        {children}
        <div className="dialog-actions">
          <button type="button" className="btn" onClick={onClose} disabled={busy}>
            Cancel
          </button>
          <button type="submit" className={`btn ${submitClass ?? 'btn-primary'}`} disabled={busy}>
            {busy ? 'Working...' : submitLabel}
          </button>
        </div>
      </form>
    </dialog>
  );
}
