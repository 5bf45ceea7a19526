import { PageHeader } from '@/components/page';

export function WebhookDetail() {
  return <PageHeader title="WebhookDetail" />;
}
