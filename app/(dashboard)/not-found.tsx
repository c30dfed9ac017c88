import Link from 'next/link';

export default function NotFound() {
  return (
    <div className="state-box" data-testid="not-found">
      <div className="title">There is no page at this address</div>
      <div className="small">
        The link may be mistyped or from an older version of Doorwatch. <Link href="/">Go to the overview</Link> or pick a section above.
      </div>
    </div>
  );
}
