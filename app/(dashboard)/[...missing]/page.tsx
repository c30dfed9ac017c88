import { notFound } from 'next/navigation';

// Any path no route matches: the dashboard's not-found page, inside the app shell and its theme.
export default function MissingPage() {
  notFound();
}
