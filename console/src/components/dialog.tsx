// A modal on the native <dialog>: focus moves in and stays in, Escape closes it, and what it shows (a secret, say) is
// unmounted when it closes, so it leaves the screen and the DOM.
import { type ReactNode, useEffect, useRef } from "react";

export function Dialog({ title, open, onClose, children }: { title: string; open: boolean; onClose(): void; children: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  const titleId = `dialog-${title.replace(/\W+/g, "-").toLowerCase()}`;
  return (
    <dialog ref={ref} aria-labelledby={titleId} onClose={onClose} className="dialog">
      {open ? (
        <>
          <h2 id={titleId}>{title}</h2>
          {children}
          <div className="actions">
            <button type="button" onClick={onClose}>
              Close
            </button>
          </div>
        </>
      ) : null}
    </dialog>
  );
}

export function CopyButton({ text, label }: { text: string; label: string }) {
  return (
    <button type="button" onClick={() => void navigator.clipboard?.writeText(text).catch(() => {})}>
      {label}
    </button>
  );
}

export function Json({ value, label }: { value: unknown; label: string }) {
  return (
    <section aria-label={label}>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable block must be reachable by keyboard */}
      <pre className="json" tabIndex={0}>
        {JSON.stringify(value, null, 2)}
      </pre>
    </section>
  );
}
