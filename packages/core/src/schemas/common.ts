import * as z from 'zod';

export const NonNegativeInt = z.int().min(0);
export const LabelValue = z.object({ label: z.string(), value: NonNegativeInt });
export type LabelValue = z.infer<typeof LabelValue>;
