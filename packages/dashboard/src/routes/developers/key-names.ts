import type { ApiKey } from '@/api';

export const keysKey = ['keys'] as const;

export const keyName = (key: ApiKey) => key.name ?? 'Unnamed key';
