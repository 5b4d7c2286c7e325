/** The toast container of spec section 9, mounted in its own root on first use. */
import { createRoot } from 'react-dom/client';
import { ToastContainer, cssTransition, toast } from 'react-toastify/unstyled';
import 'react-toastify/ReactToastify.css';
import './toaster.css';

/** The kinds of toast the site shows. */
export type ToastKind = 'success' | 'error';

const Fade = cssTransition({ enter: 'toast-fade-in', exit: 'toast-fade-out' });

let mounted = false;

export function notify(kind: ToastKind, message: string): void {
  if (!mounted) {
    mounted = true;
    const host = document.createElement('div');
    document.body.append(host);
    createRoot(host).render(
      <ToastContainer
        position="top-right"
        autoClose={5000}
        pauseOnHover
        pauseOnFocusLoss
        draggable
        draggablePercent={80}
        transition={Fade}
      />,
    );
  }
  toast[kind](message);
}
