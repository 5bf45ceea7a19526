import { PageHeader } from '@/components/page';

export function Webhooks() {
  return <PageHeader title="Webhooks" />;
}
