import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { DashboardApi } from '../api.js';

export const ApiContext = createContext<DashboardApi | null>(null);

export function useApi(): DashboardApi {
  const api = useContext(ApiContext);
  if (!api) throw new Error('useApi: no ApiContext provider above this component');
  return api;
}
