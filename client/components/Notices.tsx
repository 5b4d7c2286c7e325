/** A page's outcome after a form post: the notice of what was done, and the error of what was refused. */
export function Notices({ notice, error }: { notice: string | null; error: string | null }) {
  return (
    <>
      {notice && (
        <p className="notice notice-success" role="status">
          {notice}
        </p>
      )}
      {error && (
        <p className="notice notice-error" role="alert">
          {error}
        </p>
      )}
    </>
  );
}
