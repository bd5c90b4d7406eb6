// A settings section's writes: each clears the last message, calls the API, then reloads what
// the section shows, refused or not. A refusal keeps the server's words for the section's alert,
// a success the section's status line; `run` answers whether the call succeeded.
import { useState } from "preact/hooks";

export function useAction(reload: () => unknown) {
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (action: () => Promise<unknown>, done?: string) => {
    setError(null);
    setStatus(null);
    setBusy(true);
    let succeeded = false;
    try {
      await action();
      if (done) setStatus(done);
      succeeded = true;
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
    await reload();
    return succeeded;
  };
  return { error, setError, status, busy, run };
}
