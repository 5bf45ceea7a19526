import { PageHeader } from '@/components/page';

export function EventDetail() {
  return <PageHeader title="EventDetail" />;
}
