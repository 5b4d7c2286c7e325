/**
 * Opening a dashboard part whose code is loaded when first needed (a view, a dialog, a panel).
 * The change is made in a transition, under a Suspense boundary that is already on screen: what
 * was shown stays until the code is here, and the button that asked is marked busy (`aria-busy`)
 * meanwhile. A part opened outside a transition, in a boundary of its own, showed its spinner for
 * at least 300 ms (React's throttle on revealing a boundary's content), and its own data request
 * waited for that: about 0.3 s more on each first opening.
 */
import { useState, useTransition } from 'react';

export function useOpening() {
  const [pending, startTransition] = useTransition();
  const [asked, setAsked] = useState<string | null>(null);
  return {
    /** Makes `change` (which shows the part named `what`) once the part's code is here. */
    open(what: string, change: () => void) {
      setAsked(what);
      startTransition(change);
    },
    /** `aria-busy` for the button that opens `what`. */
    busy: (what: string): true | undefined => (pending && asked === what ? true : undefined),
  };
}
