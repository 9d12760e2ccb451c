/** Shown while a lazily loaded screen arrives. */
export function PageSpinner() {
  return (
    <div className="page-spinner">
      <div className="spinner" role="status" aria-label="Loading" />
    </div>
  );
}
