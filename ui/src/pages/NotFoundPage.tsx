import { Link } from '../components/Link.tsx';
import { EmptyState } from '../components/Page.tsx';

export function NotFoundPage() {
  return (
    <EmptyState
      title="There is no such page"
      action={
        <Link className="button" href="/admin/keys">
          Go to API keys
        </Link>
      }
    >
      The address does not match any screen of the admin window.
    </EmptyState>
  );
}
