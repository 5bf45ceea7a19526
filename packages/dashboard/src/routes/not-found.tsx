import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { PageHeader } from '@/components/page';

export function NotFound() {
  return (
    <div>
      <PageHeader title="Page not found" description="There is no dashboard page at this address. It may have moved, or the link is incomplete." />
      <Button asChild variant="outline"><Link to="/">Go to the dashboard</Link></Button>
    </div>
  );
}
