import { PageHeader } from '@/components/page';

/** Stands in for a section another part of the dashboard fills in (src/routes/catalog, src/routes/people). */
export function Placeholder({ title }: { title: string }) {
  return <PageHeader title={title} description="This section is coming soon." />;
}
