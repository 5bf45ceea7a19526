import * as React from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { usePageTitle } from '@/lib/title';

export function AuthCard({ title, description, children, footer }:
  { title: string; description?: React.ReactNode; children: React.ReactNode; footer?: React.ReactNode }) {
  usePageTitle(title);
  return (
    <>
      <Card>
        <CardHeader>
          <CardTitle className="text-xl">
            <h1>{title}</h1>
          </CardTitle>
          {description && <CardDescription>{description}</CardDescription>}
        </CardHeader>
        <CardContent>{children}</CardContent>
      </Card>
      {footer && <div className="mt-4 text-center text-sm text-muted-foreground">{footer}</div>}
    </>
  );
}
