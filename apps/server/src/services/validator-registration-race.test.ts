import { expect, it } from 'vitest';
import { isUniqueViolation, toVigilError } from '../http/plugins/errors.js';
import { describeEachDialect } from '../test-support/databases.js';
import { findValidator, registerValidator } from './validators.js';

const HOTKEY = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';

describeEachDialect('first validator registration', ({ db }) => {
  it('never overwrites a record created meanwhile: the loser gets 409 conflict', async () => {
    await registerValidator(db(), { hotkey: HOTKEY, uid: 1, allowedIps: ['10.0.0.1'], now: 1, mustBeNew: true });
    const lost = await registerValidator(db(), { hotkey: HOTKEY, uid: 1, allowedIps: ['203.0.113.9'], now: 2, mustBeNew: true }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isUniqueViolation(lost)).toBe(true);
    expect(toVigilError(lost)).toMatchObject({ status: 409, detail: 'conflicts with a concurrent request; retry it' });
    expect((await findValidator(db(), HOTKEY))?.allowedIps).toEqual(['10.0.0.1']);
    // A registered validator (allowlist already checked) updates its record as before.
    await registerValidator(db(), { hotkey: HOTKEY, uid: 1, allowedIps: ['10.0.0.2'], now: 3 });
    expect((await findValidator(db(), HOTKEY))?.allowedIps).toEqual(['10.0.0.2']);
  });
});
