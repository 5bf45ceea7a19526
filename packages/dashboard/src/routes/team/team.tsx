import { PageHeader } from '@/components/page';

export function Team() {
  return <PageHeader title="Team" />;
}
