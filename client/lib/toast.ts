/**
 * Toasts (spec section 9) without their cost on every page: react-toastify is loaded on the
 * first toast only. A flash survives a page change, so the booking's success message is shown
 * on the home page the customer is sent to.
 */
import type { ToastKind } from './toaster.tsx';

const FLASH_KEY = 'flash';

export async function showToast(kind: ToastKind, message: string): Promise<void> {
  const { notify } = await import('./toaster.tsx');
  notify(kind, message);
}

export function setFlash(kind: ToastKind, message: string): void {
  try {
    sessionStorage.setItem(FLASH_KEY, JSON.stringify({ kind, message }));
  } catch {
    // Storage can be disabled; the customer then simply sees no toast after the page change.
  }
}

export function showFlash(): void {
  let flash: { kind?: unknown; message?: unknown } | null = null;
  try {
    flash = JSON.parse(sessionStorage.getItem(FLASH_KEY) ?? 'null');
    sessionStorage.removeItem(FLASH_KEY);
  } catch {
    return;
  }
  if (flash && (flash.kind === 'success' || flash.kind === 'error') && typeof flash.message === 'string') {
    void showToast(flash.kind, flash.message);
  }
}
