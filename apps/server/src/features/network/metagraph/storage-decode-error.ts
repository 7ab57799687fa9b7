/** Why a storage value could not be decoded; the caller adds which endpoint said it. */
export class StorageDecodeError extends Error {
  override name = 'StorageDecodeError';
}
