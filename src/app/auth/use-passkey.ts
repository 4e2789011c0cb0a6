// The state of a page's passkey buttons: whether this browser can use passkeys (unknown until the
// page's script runs, so the page says they need JavaScript until then), and a ceremony under way.
import { useEffect, useState } from "react";

export type Support = "unknown" | "yes" | "no";

export function usePasskey(base: string) {
  const [support, setSupport] = useState<Support>("unknown");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const native =
      typeof PublicKeyCredential === "function" && "parseCreationOptionsFromJSON" in PublicKeyCredential;
    setSupport(native ? "yes" : "no");
  }, []);
  /** Runs a ceremony, then loads where the server said to go (the whole page: who is signed in changed). */
  async function run(kind: "register" | "authenticate", body: Record<string, unknown>) {
    setBusy(true);
    setError(null);
    try {
      const { passkeyCeremony } = await import("./passkey-client");
      window.location.assign(await passkeyCeremony(base, kind, body));
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
      setBusy(false);
    }
  }
  return { support, busy, error, run, ready: support === "yes" && !busy };
}

/** What a page says while its passkey buttons cannot work. */
export function supportNote(support: Support): string | null {
  if (support === "unknown") return "Passkeys need JavaScript: turn it on to sign in or add a passkey.";
  if (support === "no")
    return "This browser cannot use passkeys here: try a recent Chrome, Edge, Safari or Firefox.";
  return null;
}
