/** An error message in a role="alert" box (text only), or nothing. */
export function ErrorNote({ message }: { message?: string | null }) {
  if (!message) return null;
  return (
    <p class="error" role="alert">
      {message}
    </p>
  );
}
