export function Spinner({ label = 'loading' }: { label?: string }) {
  return <span className="spinner" role="progressbar" aria-label={label} />;
}
