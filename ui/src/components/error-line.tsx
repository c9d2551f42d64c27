/** Why something failed, read out when it appears; nothing without a message. */
export function ErrorLine({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p className="q-error-line" role="alert">
      {message}
    </p>
  );
}
