import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import { theirsNeeded, theirsQuestion, type TheirsAct } from '../api/index.js';
import { ModalDialog } from './modal-dialog.js';

interface TheirsApi {
  /** Asks, in a dialog, whether the person means it of `owner`'s workflow: true on confirm, false on Cancel. */
  ask: (owner: string, act: TheirsAct) => Promise<boolean>;
  /**
   * Sends a command (`theirs`: said meant of a teammate's workflow); one the server refuses as a teammate's
   * (`theirsNeeded`: whose it is changed, or the page could not tell) is asked about and, on confirm, sent again with
   * `theirs`. Null when the person cancelled: nothing was done.
   */
  send: <T>(act: TheirsAct, theirs: boolean, command: (theirs: boolean) => Promise<T>) => Promise<T | null>;
}

const TheirsContext = createContext<TheirsApi | null>(null);

const labels: Record<TheirsAct, string> = {
  pause: 'Pause anyway',
  resume: 'Resume anyway',
  withdraw: 'Withdraw anyway',
  abandon: 'Abandon anyway',
  recover: 'Recover anyway',
};

/**
 * The one confirmation a pause, resume, withdrawn pause, abandon or recovery of a teammate's workflow asks first (the server
 * refuses them unless meant: `"theirs": true`), naming whose it is; Cancel sends nothing.
 */
export function TheirsConfirmProvider({ children }: { children: ReactNode }) {
  const [asked, setAsked] = useState<{ owner: string; act: TheirsAct } | null>(null);
  // the pending answer: answered once (the dialog's close event follows a confirm, and must not answer it again)
  const answer = useRef<((yes: boolean) => void) | null>(null);
  const reply = useCallback((yes: boolean) => {
    const a = answer.current;
    answer.current = null;
    setAsked(null);
    a?.(yes);
  }, []);
  const ask = useCallback(
    (owner: string, act: TheirsAct) =>
      new Promise<boolean>((resolve) => {
        answer.current?.(false);
        answer.current = resolve;
        setAsked({ owner, act });
      }),
    [],
  );
  const api = useMemo<TheirsApi>(
    () => ({
      ask,
      send: async (act, theirs, command) => {
        try {
          return await command(theirs);
        } catch (e) {
          const owner = theirs ? null : theirsNeeded(e);
          if (!owner) throw e;
          if (!(await ask(owner, act))) return null;
          return command(true);
        }
      },
    }),
    [ask],
  );
  return (
    <TheirsContext.Provider value={api}>
      {children}
      <ModalDialog
        open={asked !== null}
        title="Not your workflow"
        submitLabel={asked ? labels[asked.act] : 'Confirm'}
        submitClass={asked?.act === 'abandon' ? 'btn-danger' : undefined}
        onClose={() => reply(false)}
        onSubmit={() => reply(true)}
      >
        {asked && <p data-testid="theirs-confirm">{theirsQuestion(asked.owner, asked.act)}</p>}
      </ModalDialog>
    </TheirsContext.Provider>
  );
}

export function useTheirs(): TheirsApi {
  const c = useContext(TheirsContext);
  if (!c) throw new Error('useTheirs needs a TheirsConfirmProvider above it');
  return c;
}
