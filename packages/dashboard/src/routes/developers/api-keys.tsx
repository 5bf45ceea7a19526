import { PageHeader } from '@/components/page';

export function ApiKeys() {
  return <PageHeader title="ApiKeys" />;
}
