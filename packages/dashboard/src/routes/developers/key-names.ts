import type { ApiKey } from '@/api';

export const keyName = (key: ApiKey) => key.name ?? 'Unnamed key';
