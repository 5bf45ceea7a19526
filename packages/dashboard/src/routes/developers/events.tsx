import { PageHeader } from '@/components/page';

export function Events() {
  return <PageHeader title="Events" />;
}
